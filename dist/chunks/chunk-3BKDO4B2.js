
var t=class extends Error{input;constructor(r,s){super(`Input '${r}': ${s}`),this.name="InputError",this.input=r}};export{t as a};
