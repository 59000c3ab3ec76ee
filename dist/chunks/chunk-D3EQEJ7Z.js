
import{createRequire as n}from"node:module";var r="gitbook-openapi:compare",a=`--${r}`;function p(o){if(o.at(-1)!==a)return!1;let{isMainThread:e,workerData:t}=n(import.meta.url)("node:worker_threads");return!e&&t?.kind===r}export{r as a,a as b,p as c};
