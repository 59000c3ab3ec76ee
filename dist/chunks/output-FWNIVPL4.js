import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{c as a,d as b,e as c}from"./chunk-IKHQZS6V.js";import"./chunk-5EXG3BDG.js";import"./chunk-VLLA3SL4.js";import"./chunk-7YWC3P3A.js";export{a as Output,b as printable,c as writeFailure};
