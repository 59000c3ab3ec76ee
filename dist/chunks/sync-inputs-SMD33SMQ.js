
import{a as c,b as d,c as e}from"./chunk-3ASK5QUX.js";import{a,b}from"./chunk-W4RK7XNM.js";import"./chunk-GIKUTL5N.js";import"./chunk-OCKEGYR7.js";import"./chunk-C2WZWKSJ.js";import"./chunk-Q6IXZKMQ.js";import"./chunk-KU7SKI4U.js";import"./chunk-5EXG3BDG.js";import"./chunk-THFKJ363.js";export{c as SYNC_SETTINGS,b as TOKEN_SETTINGS,e as createInputReader,a as longFlag,d as refuseToken};
