import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{a}from"./chunk-VEPYSH2J.js";import"./chunk-7YWC3P3A.js";export{a as isWithin};
