import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a as o}from"./chunk-I5E7GIG6.js";var t=o.version,p=`gitbook-openapi/${t}`;export{t as a,p as b};
