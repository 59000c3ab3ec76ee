
import{a as e}from"./chunk-OCKEGYR7.js";import{a as o}from"./chunk-7FUZZ5MU.js";import t from"node:path";function h(r,n,i,p){let s=t.resolve(n,i);if(!o(r,s))throw new e(p,`${i} is outside the workspace ${r}; pass --workspace.`);return t.relative(r,s).split(t.sep).join("/")}export{h as a};
