import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{q as a,r as b,s as c,t as d}from"./chunk-56YHNOBR.js";import"./chunk-OTX3KQS7.js";import"./chunk-MT5HJ2DY.js";import"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as DiscoveryError,d as discoverSpecs,c as inspectFile,b as loadSpec};
