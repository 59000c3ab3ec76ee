
var r={listen(o){let s=()=>o("SIGINT"),e=()=>o("SIGTERM");return process.on("SIGINT",s),process.on("SIGTERM",e),()=>{process.off("SIGINT",s),process.off("SIGTERM",e)}},exit:o=>process.exit(o)};export{r as a};
