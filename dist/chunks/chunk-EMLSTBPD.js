
function t(e){return e.replace(/\s+/g," ").trim().replace(/[\\`*_[\]{}()#+!|~]/g,"\\$&").replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;").replace(/@/g,"&#64;")}function p(e){return t(e)||" "}function s(e){return e===""?" ":`\`${e.replace(/`/g,"'").replace(/\|/g,"\\|").replace(/\s+/g," ")}\``}function i(e){if(!e||!URL.canParse(e))return;let n=new URL(e);return n.protocol==="https:"||n.protocol==="http:"?n:void 0}function c(e){let n=i(e);if(n!==void 0)return n.href.replace(/[()|<>\s\\[\]`]/g,r=>`%${r.charCodeAt(0).toString(16).toUpperCase().padStart(2,"0")}`)}function g(e,n){let r=c(n);return r?`[${t(e)}](${r})`:""}function a(e){let n=Math.max(0,...(e.match(/`+/g)??[]).map(o=>o.length)),r="`".repeat(Math.max(3,n+1));return`${r}text
${e.replace(/\r\n?/g,`
`)}
${r}`}var u="no longer in the repository";export{t as a,p as b,s as c,i as d,c as e,g as f,a as g,u as h};
