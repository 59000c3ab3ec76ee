
import{a,b}from"./chunk-YETVUUEJ.js";import"./chunk-THFKJ363.js";export{b as bareMessage,a as locatedMessage};
