
import{a}from"./chunk-TJ53PJO3.js";import"./chunk-TWWX45O7.js";import"./chunk-F5YA2GS6.js";import"./chunk-XSONBEZQ.js";import"./chunk-BEXKXEXS.js";import"./chunk-VYWYDCPS.js";import"./chunk-VLLA3SL4.js";import"./chunk-ABNEQGBF.js";import"./chunk-7YWC3P3A.js";export{a as rerunMemory};
