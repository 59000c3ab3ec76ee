import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{o as a,p as b,q as c,r as d}from"./chunk-WXROSYQT.js";import"./chunk-X5ASWFN7.js";import"./chunk-VRUZHFEO.js";import"./chunk-ABNEQGBF.js";import"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as DiscoveryError,d as discoverSpecs,c as inspectFile,b as loadSpec};
