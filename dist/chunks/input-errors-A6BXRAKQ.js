
import{a,b}from"./chunk-GMTMKAGM.js";import"./chunk-3BKDO4B2.js";import"./chunk-OCKEGYR7.js";import"./chunk-THFKJ363.js";export{a as checkInputs,b as usageErrorOf};
