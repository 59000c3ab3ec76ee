
function e(n){return n===""?[]:n.slice(1).split("/").map(r=>r.replaceAll("~1","/").replaceAll("~0","~"))}function t(n){return n.map(r=>`/${r.replaceAll("~","~0").replaceAll("/","~1")}`).join("")}function o(n){return typeof n=="object"&&n!==null}export{e as a,t as b,o as c};
