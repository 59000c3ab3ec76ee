
import{a,b}from"./chunk-YETVUUEJ.js";import"./chunk-7YWC3P3A.js";export{b as bareMessage,a as locatedMessage};
