
import{deserialize as t,serialize as f}from"node:v8";var r=class{bytes;constructor(e){this.bytes=e}};function u(n){return new r(f(n))}function i(n){return n instanceof r?t(n.bytes):n}function a(n){return!n||!(n.buffer instanceof ArrayBuffer)?[]:n.byteOffset===0&&n.byteLength===n.buffer.byteLength?[n.buffer]:[]}export{r as a,u as b,i as c,a as d};
