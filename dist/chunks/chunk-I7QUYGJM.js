
import{a as o}from"./chunk-ZB7VMAQG.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
