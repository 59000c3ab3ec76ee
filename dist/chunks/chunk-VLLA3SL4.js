
var e=/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;function f(t,n=!1){return t.replace(e,u=>n&&u===`
`?u:r(u))}function r(t){return`\\u${t.charCodeAt(0).toString(16).padStart(4,"0")}`}export{f as a,r as b};
