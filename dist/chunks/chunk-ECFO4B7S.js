
var e={ok:0,failed:1,usage:2,refused:3,interrupted:130,terminated:143},t=`Exit codes:
  0  success
  1  one or more specs failed or timed out (sync), a breaking change with --fail-on-breaking
     (sync, diff), the operation failed, or a write to stdout or an output file failed
  2  usage or input error (the message names the flag or variable)
  3  the service refused the token or the organization (401/403), or knows no such organization
  130  interrupted (SIGINT, Ctrl-C); in sync: no other spec started, those under way got 2 s (else
       cancelled), and the partial report was printed (a second signal exits at once)
  143  the same, stopped by SIGTERM`,o=`Exit codes:
  0  compared (with --fail-on-breaking: and no breaking change was found)
  1  --fail-on-breaking and a breaking change was found (with --base: or a spec removed since the ref;
     with --fail-on-unreviewed: or a spec not reviewed), or the comparison could not finish within
     its budget (memory, time)
  2  usage or input error: a file that cannot be read, is not an OpenAPI document or cannot be bundled
     (the message names it), a --base ref this checkout does not have (fetch it), or a bad
     GITBOOK_REVIEW_* value`;export{e as a,t as b,o as c};
