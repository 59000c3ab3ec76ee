import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{createRequire as n}from"node:module";var r="gitbook-openapi:compare",t="GITBOOK_OPENAPI_WORKER";function i(){if(process.env[t]!==r)return!1;let{isMainThread:e,workerData:o}=n(import.meta.url)("node:worker_threads");return!e&&o?.kind===r}export{r as a,t as b,i as c};
