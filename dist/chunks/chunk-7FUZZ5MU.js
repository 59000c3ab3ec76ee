
import i from"node:path";function n(r,e){let t=i.relative(r,e);return t!==".."&&!t.startsWith(`..${i.sep}`)&&!i.isAbsolute(t)}export{n as a};
