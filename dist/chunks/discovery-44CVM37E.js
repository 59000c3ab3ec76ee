import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{h as a,r as b,s as c,t as d}from"./chunk-4KD4UBO3.js";import"./chunk-MD733LEQ.js";import"./chunk-VRUZHFEO.js";import"./chunk-ABNEQGBF.js";import"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as DiscoveryError,d as discoverSpecs,c as inspectFile,b as loadSpec};
