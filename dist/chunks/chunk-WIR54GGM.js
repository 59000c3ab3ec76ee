import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
var e=["schema","refs","info"];export{e as a};
