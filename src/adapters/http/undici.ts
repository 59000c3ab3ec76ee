/**
 * The two parts of undici the clients use, `request` and `EnvHttpProxyAgent`, loaded from undici's own
 * files rather than from its index: the index loads the whole library (fetch, WebSocket, caches, mocks,
 * SOCKS, 730 kB once bundled), and that cost every command that calls GitBook about 30 ms of its start
 * (docs/design/build-choice.md). `request` does what the index's `request` does (undici/index.js
 * `makeDispatcher`) for the calls made here: a URL, options with a dispatcher or undici's global one.
 * The types are undici's own (./undici-parts.d.ts declares the files).
 */
import type { Dispatcher } from "undici";
import apiRequest from "undici/lib/api/api-request.js";
import util from "undici/lib/core/util.js";
import EnvHttpProxyAgentClass from "undici/lib/dispatcher/env-http-proxy-agent.js";
import globalDispatcher from "undici/lib/global.js";

export const EnvHttpProxyAgent = EnvHttpProxyAgentClass;

type RequestOptions = Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
  method?: Dispatcher.HttpMethod;
  dispatcher?: Dispatcher;
};

export function request(url: URL | string, options: RequestOptions = {}): Promise<Dispatcher.ResponseData> {
  const target = util.parseURL(url);
  const { dispatcher = globalDispatcher.getGlobalDispatcher(), ...rest } = options;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: options.method ?? (options.body ? "PUT" : "GET"),
  });
}
