import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{g as a,q as b,r as c,s as d}from"./chunk-F2JPNLYL.js";import"./chunk-MD733LEQ.js";import"./chunk-VRUZHFEO.js";import"./chunk-ABNEQGBF.js";import"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as DiscoveryError,d as discoverSpecs,c as inspectFile,b as loadSpec};
