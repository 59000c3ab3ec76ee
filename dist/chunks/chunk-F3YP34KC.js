
import{a as o}from"./chunk-TEFGQDE2.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
