
import{a,b,c}from"./chunk-SGDA4K65.js";import"./chunk-LCTJGYQ5.js";import"./chunk-ISZR6SAK.js";import"./chunk-FVP6H6CM.js";import"./chunk-GIKUTL5N.js";import"./chunk-KU7SKI4U.js";import"./chunk-XSONBEZQ.js";import"./chunk-VYWYDCPS.js";import"./chunk-ABNEQGBF.js";import"./chunk-7YWC3P3A.js";export{a as TRUST_SETTINGS,b as pullRequestConfig,c as readBaseConfig};
