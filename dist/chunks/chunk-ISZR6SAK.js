import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
var e=class extends Error{name="ConfigFileError"};export{e as a};
