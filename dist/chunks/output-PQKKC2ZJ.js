
import{d as a,e as b,f as c}from"./chunk-YPBNRLUJ.js";import"./chunk-VLLA3SL4.js";import"./chunk-5EXG3BDG.js";import"./chunk-THFKJ363.js";export{a as Output,b as printable,c as writeFailure};
