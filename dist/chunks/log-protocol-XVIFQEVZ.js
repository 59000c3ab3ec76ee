
import{a,b,c}from"./chunk-ABNEQGBF.js";import"./chunk-THFKJ363.js";export{b as defuseCommands,c as defuseSingleLine,a as escapeUntrusted};
