import { createServer, request as forward, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closedPort,
  type LoopbackServer,
  sendJson,
  specBody,
  startServer,
} from "../../harness/loopback/loopback.ts";
import { GitBookClient, GitBookConnectionError } from "../../src/adapters/gitbook/index.ts";

const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"];

interface ForwardProxy {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A plain-HTTP forward proxy: receives absolute-form requests, records them and relays them. */
async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: ForwardProxy["seen"] = [];
  const server = createServer((incoming, outgoing) => {
    seen.push({ method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers });
    const target = new URL(incoming.url ?? "");
    const relay = forward(
      target,
      { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    relay.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(relay);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let saved: Record<string, string | undefined>;
let api: LoopbackServer;
let proxy: ForwardProxy;
let client: GitBookClient | undefined;

beforeEach(async () => {
  saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARIABLES) delete process.env[name];
  api = await startServer((_request, response) => sendJson(response, 200, specBody("pets")));
  proxy = await startForwardProxy();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all([api.close(), proxy.close()]);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("proxy settings from the environment", () => {
  it("sends requests through HTTP_PROXY", async () => {
    process.env.HTTP_PROXY = proxy.url;
    client = new GitBookClient({ token: "proxy-token", baseUrl: api.url });
    await expect(client.getSpec("acme", "pets")).resolves.toMatchObject({ slug: "pets" });
    expect(proxy.seen).toEqual([
      expect.objectContaining({ method: "GET", url: `${api.url}/v1/orgs/acme/openapi/pets` }),
    ]);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.headers.authorization).toBe("Bearer proxy-token");
  });

  it("goes direct for hosts in NO_PROXY", async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = "127.0.0.1";
    client = new GitBookClient({ token: "proxy-token", baseUrl: api.url });
    await client.getSpec("acme", "pets");
    expect(proxy.seen).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it("goes direct when no proxy is set", async () => {
    client = new GitBookClient({ token: "proxy-token", baseUrl: api.url });
    await client.getSpec("acme", "pets");
    expect(proxy.seen).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it("reports an unreachable proxy as a connection error that points at the proxy settings", async () => {
    process.env.HTTP_PROXY = `http://127.0.0.1:${await closedPort()}`;
    client = new GitBookClient({ token: "proxy-token", baseUrl: api.url, retry: { maxRetries: 0 } });
    const error = await client.getSpec("acme", "pets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookConnectionError);
    expect((error as GitBookConnectionError).code).toBe("ECONNREFUSED");
    expect(String(error)).toContain("HTTPS_PROXY");
    expect(String(error)).not.toContain("proxy-token");
    expect(api.requests).toHaveLength(0);
  });
});
