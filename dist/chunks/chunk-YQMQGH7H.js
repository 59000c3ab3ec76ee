import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);
import{isMainThread as o,workerData as n}from"node:worker_threads";var r="gitbook-openapi:compare";function a(){return!o&&n?.kind===r}export{r as a,a as b};
