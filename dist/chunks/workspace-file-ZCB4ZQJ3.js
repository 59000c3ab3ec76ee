
import{a}from"./chunk-3V53FWN7.js";import"./chunk-OCKEGYR7.js";import"./chunk-7FUZZ5MU.js";import"./chunk-THFKJ363.js";export{a as workspacePath};
