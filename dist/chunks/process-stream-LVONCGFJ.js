
import"./chunk-7YWC3P3A.js";function d(e){let n,t=r=>{r&&(n??=r)};return e.on("error",t),{get isTTY(){return e.isTTY===!0},get columns(){return e.columns},write(r){n===void 0&&!e.destroyed&&e.write(r,t)},settled:()=>new Promise(r=>{if(n!==void 0||e.destroyed)return r(n);e.write("",i=>r(n??i??void 0))})}}export{d as processStream};
