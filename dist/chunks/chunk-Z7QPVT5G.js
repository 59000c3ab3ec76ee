import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a as o}from"./chunk-X7JOJA4B.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
