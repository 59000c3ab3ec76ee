
function o(t){let r=[[1073741824,"GiB"],[1048576,"MiB"],[1024,"KiB"]];for(let[n,e]of r)if(t>=n){let i=t/n;return`${Number.isInteger(i)?i:i.toFixed(1)} ${e}`}return`${t} bytes`}export{o as a};
