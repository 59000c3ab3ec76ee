
function r(e){return/--[a-z-]+/.exec(e)[0]}var n="GITBOOK_TOKEN or --token-file";export{r as a,n as b};
