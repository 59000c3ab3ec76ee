import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
var i={ok:0,failed:1,usage:2,refused:3,interrupted:130,terminated:143},a=`Exit codes:
  0  success
  1  one or more specs failed or timed out (sync), a breaking change with --fail-on-breaking
     (sync, diff), or the operation failed
  2  usage or input error (the message names the flag or variable)
  3  the service refused the token or the organization (401/403)
  130  interrupted (SIGINT, Ctrl-C); in sync: the specs started finished, no other started, and the
       partial report was printed (a second signal exits at once)
  143  the same, stopped by SIGTERM`,d=`Exit codes:
  0  compared (with --fail-on-breaking: and no breaking change was found)
  1  --fail-on-breaking and a breaking change was found, or the comparison could not finish within
     its budget (memory, time)
  2  usage or input error: a file that cannot be read, is not an OpenAPI document or cannot be bundled
     (the message names it), or a bad GITBOOK_REVIEW_* value`;var l={listen(e){let o=()=>e("SIGINT"),t=()=>e("SIGTERM");return process.on("SIGINT",o),process.on("SIGTERM",t),()=>{process.off("SIGINT",o),process.off("SIGTERM",t)}},exit:e=>process.exit(e)},r=class extends Error{name="Interrupted";signal;constructor(o){super(`interrupted by ${o}`),this.signal=o}get exitCode(){return this.signal==="SIGINT"?i.interrupted:i.terminated}};function S(e,o){let t=new AbortController;if(e===void 0)return{stop:t.signal,dispose:()=>{}};let s=e.listen(n=>{if(!t.signal.aborted){t.abort(new r(n)),o.onFirst(n);return}o.onSecond(n),e.exit(new r(n).exitCode)});return{stop:t.signal,dispose:s}}export{i as a,a as b,d as c,l as d,r as e,S as f};
