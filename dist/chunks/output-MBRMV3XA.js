
import{d as a,e as b,f as c,g as d}from"./chunk-ZZAQQKPD.js";import"./chunk-5EXG3BDG.js";import"./chunk-SRJH4KEO.js";import"./chunk-VLLA3SL4.js";import"./chunk-THFKJ363.js";export{a as Output,b as printable,c as printableLine,d as writeFailure};
