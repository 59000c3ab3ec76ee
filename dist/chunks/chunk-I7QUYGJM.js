import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a as o}from"./chunk-ZB7VMAQG.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
