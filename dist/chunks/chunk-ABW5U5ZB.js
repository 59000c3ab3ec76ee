
function n(e){return e.operation===void 0?e.message:`${e.operation}: ${e.message}`}function i(e){return`${e.file??""}${e.line===void 0?"":`:${e.line}`}`}export{n as a,i as b};
