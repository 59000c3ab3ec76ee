
var t=/[%\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029]/g,u=/^([\s\u0000-\u001f\u007f\u0085\u200b-\u200f\u2060\ufeff]*):(?=:)/,o=/##\[/g,s=/\r\n|\r|\n/;function f(n){return r(n.replace(t,e=>c(e)))}function g(n){return i(n)?n.split(s).map(r).join(`
`):n}function p(n){return r(n.replace(/\r/g,"%0D").replace(/\n/g,"%0A"))}function r(n){return n.replace(u,"$1%3A").replace(o,"#%23[")}function i(n){return n.includes("::")||n.includes("##[")}function c(n){let e=n.charCodeAt(0);return e<128?`%${e.toString(16).toUpperCase().padStart(2,"0")}`:encodeURIComponent(n)}export{f as a,g as b,p as c};
