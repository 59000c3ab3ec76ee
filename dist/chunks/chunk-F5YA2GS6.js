
import{createRequire as r}from"node:module";var t;function p(e){return t??=r(import.meta.url)("node:crypto"),t.createHash("sha256").update(e).digest("hex")}export{p as a};
