import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
var t=class extends Error{input;constructor(r,s){super(`Input '${r}': ${s}`),this.name="InputError",this.input=r}};export{t as a};
