import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{w as a,x as b,y as c}from"./chunk-R7QTTX2X.js";import"./chunk-ODWTZ54H.js";import"./chunk-MJL5WSKA.js";import"./chunk-LQNHTHZT.js";import"./chunk-CNG5X5RM.js";import"./chunk-GFPG3DZE.js";import"./chunk-7YWC3P3A.js";export{a as SETTING_INPUTS,c as readConfig,b as refuseSecretsInSettings};
