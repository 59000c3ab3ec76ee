
function s({message:t,location:n}){let{file:o,line:e,column:r}=n,i=e===void 0?"":`:${e}${r===void 0?"":`:${r}`}`;return`${o}${i}: ${t}`}function c(t,n){return t.startsWith(`${n}:`)?t.slice(n.length).replace(/^(:\d+(:\d+)?)?:\s*/,""):t}export{s as a,c as b};
