import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{r as a,s as b,t as c,u as d}from"./chunk-D74UTABJ.js";import"./chunk-X5ASWFN7.js";import"./chunk-VRUZHFEO.js";import"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as DiscoveryError,d as discoverSpecs,c as inspectFile,b as loadSpec};
