
import{a,b,c}from"./chunk-KP3RWT7X.js";import"./chunk-T6ZE7RCB.js";import"./chunk-ISZR6SAK.js";import"./chunk-FVP6H6CM.js";import"./chunk-GIKUTL5N.js";import"./chunk-KU7SKI4U.js";import"./chunk-YBKZYC7I.js";import"./chunk-TK2DORIV.js";import"./chunk-SRJH4KEO.js";import"./chunk-THFKJ363.js";export{a as TRUST_SETTINGS,b as pullRequestConfig,c as readBaseConfig};
