
import{b as c}from"./chunk-VLLA3SL4.js";function N(n){let t=[];return g(n)&&!p(n)?f(n,"",t):t.push(y(n),`
`),t.join("")}function g(n){return typeof n=="object"&&n!==null}function p(n){if(Array.isArray(n))return n.length===0;for(let t in n)if(Object.hasOwn(n,t))return!1;return!0}function f(n,t,r){let o=`${t}  `;if(Array.isArray(n)){for(let i of n)r.push(t,"-"),u(i===void 0?null:i,o,r,!0);return}for(let i of Object.keys(n)){let s=n[i];s===void 0||typeof s=="function"||(r.push(t,$(i),":"),u(s,o,r,!1))}}function u(n,t,r,o){if(g(n)&&!p(n)){if(o&&!Array.isArray(n)){let i=r.length;f(n,t,r),r[i]=" ";return}r.push(`
`),f(n,t,r);return}if(typeof n=="string"&&j(n)){r.push(" ",S(n,t));return}r.push(" ",y(n),`
`)}function y(n){if(n==null)return"null";if(typeof n=="string")return l(n);if(typeof n=="number")return Number.isFinite(n)?String(n):Number.isNaN(n)?".nan":n>0?".inf":"-.inf";if(typeof n=="boolean")return String(n);if(typeof n=="bigint")return n.toString();if(Array.isArray(n))return"[]";if(typeof n=="object")return"{}";throw new TypeError(`cannot write a ${typeof n} as YAML`)}var h=/^[A-Za-z_/$][\w/$.+\-{}() ]*$/,w=/^[A-Za-z_/$][\w/$.+\-{}()]*$/,d=/^(?:y|n|yes|no|on|off|true|false|null)$/i;function $(n){return w.test(n)&&!d.test(n)?n:b(n)}function l(n){return h.test(n)&&!n.endsWith(" ")&&!d.test(n)?n:b(n)}var m=/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/,A=/[\u007f-\u009f\u2028\u2029\ufeff]/g,k=/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;function b(n){return JSON.stringify(n).replace(A,c)}function j(n){return n.includes(`
`)&&/^[^\s]/.test(n)&&!n.includes("\r")&&!m.test(n)&&!k.test(n)}function S(n,t){let r=n.replace(/\n+$/,""),o=n.length-r.length,i=o===0?"-":o===1?"":"+",s=r.split(`
`).map(e=>e===""?"":t+e);return`|${i}
${s.join(`
`)}
${`
`.repeat(Math.max(0,o-1))}`}export{N as a};
