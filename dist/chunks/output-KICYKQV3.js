
import{c as a,d as b,e as c}from"./chunk-OHSVZLYY.js";import"./chunk-VLLA3SL4.js";import"./chunk-5EXG3BDG.js";import"./chunk-7YWC3P3A.js";export{a as Output,b as printable,c as writeFailure};
