// undici's own files that ./undici.ts loads instead of its index, typed with undici's published types.
declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";

  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module "undici/lib/core/util.js" {
  const util: { parseURL(url: URL | string): URL };
  export default util;
}
declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import { EnvHttpProxyAgent } from "undici";
  export default EnvHttpProxyAgent;
}
declare module "undici/lib/global.js" {
  import type { Dispatcher } from "undici";

  const global: { getGlobalDispatcher(): Dispatcher };
  export default global;
}
