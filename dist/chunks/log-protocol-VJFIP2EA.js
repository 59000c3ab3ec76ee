
import{a,b,c}from"./chunk-ABNEQGBF.js";import"./chunk-7YWC3P3A.js";export{b as defuseCommands,c as defuseSingleLine,a as escapeUntrusted};
