import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a,b,c}from"./chunk-ABNEQGBF.js";import"./chunk-7YWC3P3A.js";export{b as defuseCommands,c as defuseSingleLine,a as escapeUntrusted};
