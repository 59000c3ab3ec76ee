import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a as o}from"./chunk-BS5FAHJL.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
