
var s=class extends Error{name="UsageError";setting;constructor(r,t){super(`${r}: ${t}`),this.setting=r}};export{s as a};
