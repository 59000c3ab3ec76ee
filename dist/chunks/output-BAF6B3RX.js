
import{c as a,d as b,e as c}from"./chunk-243NAHCL.js";import"./chunk-VLLA3SL4.js";import"./chunk-5EXG3BDG.js";import"./chunk-THFKJ363.js";export{a as Output,b as printable,c as writeFailure};
