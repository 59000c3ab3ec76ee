
function i(r,n){if(r.length<=n)return r;let t=Array.from(r);return t.length<=n?r:`${t.slice(0,Math.max(0,n-1)).join("")}…`}function o(r,n){if(r.length<=n)return r;let t=Array.from(r);if(t.length<=n)return r;let e=Math.floor(n/3);return`${t.slice(0,e).join("")}…${t.slice(t.length-(n-e-1)).join("")}`}export{i as a,o as b};
