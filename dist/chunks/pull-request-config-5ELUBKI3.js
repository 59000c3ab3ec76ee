
import{a,b,c}from"./chunk-X47FQOSR.js";import"./chunk-T6ZE7RCB.js";import"./chunk-ISZR6SAK.js";import"./chunk-FVP6H6CM.js";import"./chunk-GIKUTL5N.js";import"./chunk-KU7SKI4U.js";import"./chunk-YBKZYC7I.js";import"./chunk-TK2DORIV.js";import"./chunk-ABNEQGBF.js";import"./chunk-THFKJ363.js";export{a as TRUST_SETTINGS,b as pullRequestConfig,c as readBaseConfig};
