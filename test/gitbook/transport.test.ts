import { inspect } from "node:util";
import { Agent } from "undici";
import { describe, expect, it } from "vitest";
import { closedPort, type LoopbackServer, sendJson, specBody } from "../../harness/loopback/loopback.ts";
import {
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  ConflictError,
  GitBookApiError,
  GitBookClient,
  GitBookConnectionError,
  GitBookTimeoutError,
  InvalidArgumentError,
  InvalidSlugError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnexpectedRedirectError,
  UnexpectedResponseError,
} from "../../src/adapters/gitbook/index.ts";
import { caught, useCleanups } from "../support/loopback-servers.ts";

const TOKEN = "gb_api_secret-token-0123456789";

const cleanups = useCleanups();
const server = cleanups.server;

interface TestClient {
  client: GitBookClient;
  delays: number[];
  retries: { attempt: number; reason: string }[];
}

function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): TestClient {
  const delays: number[] = [];
  const retries: { attempt: number; reason: string }[] = [];
  const client = new GitBookClient({
    token: TOKEN,
    baseUrl,
    random: () => 0,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRetry: (event) => retries.push({ attempt: event.attempt, reason: event.reason }),
    ...options,
  });
  cleanups.add(() => client.close());
  return { client, delays, retries };
}

function expectNoToken(error: Error): void {
  const views = [
    String(error),
    error.message,
    error.stack ?? "",
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(error),
    JSON.stringify((error as { request?: unknown }).request ?? null),
  ];
  for (const view of views) expect(view).not.toContain(TOKEN);
  expect(views.join("\n")).not.toContain("secret-token");
}

describe("requests", () => {
  it("sends the token, a user agent naming the project and version, and JSON headers", async () => {
    const api = await server((_request, response) => sendJson(response, 201, specBody("pets")));
    const { client } = clientFor(api.url);
    await client.createSpec("acme", "pets", { text: "openapi: 3.1.0" });
    await client.getSpec("acme", "pets");

    const [post, get] = api.requests;
    expect(post?.method).toBe("POST");
    expect(post?.url).toBe("/v1/orgs/acme/openapi");
    expect(post?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(post?.headers["user-agent"]).toMatch(/^gitbook-openapi-action\/\d+\.\d+\.\d+/);
    expect(post?.headers.accept).toBe("application/json");
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post?.body ?? "")).toEqual({ slug: "pets", source: { text: "openapi: 3.1.0" } });
    expect(get?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(get?.headers["content-type"]).toBeUndefined();
  });

  it("URL-encodes every path parameter and sends list queries", async () => {
    const api = await server((request, response) => {
      if (request.url.includes("/email-domains/")) sendJson(response, 200, { organizations: [] });
      else if (request.url.endsWith("/openapi") || request.url.includes("/openapi?"))
        sendJson(response, 200, { items: [] });
      else
        sendJson(response, 200, {
          object: "openapi-spec-version",
          id: "v 1",
          url: "https://x",
          urls: { location: "https://x" },
        });
    });
    const { client } = clientFor(api.url);
    await client.listSpecs("team a b?", { limit: 5, page: "next&page=2" });
    await client.getVersion("o#1", "pets", "v 1?x");
    await client.listOrganizationsByEmailDomain("exa mple.com?x");
    expect(api.requests.map((r) => r.url)).toEqual([
      "/v1/orgs/team%20a%20b%3F/openapi?page=next%26page%3D2&limit=5",
      "/v1/orgs/o%231/openapi/pets/versions/v%201%3Fx",
      "/v1/email-domains/exa%20mple.com%3Fx/orgs",
    ]);
  });

  it("refuses, before any request, a path parameter that could change the path (issue 8, item 3)", async () => {
    const api = await server((_request, response) => sendJson(response, 200, { items: [] }));
    const { client } = clientFor(api.url);
    for (const orgId of [".", "..", "%2e%2e", "%2E.", "%252e%252e", "a/b", "a%2Fb", "a\\b", "x\ny"]) {
      const error = await client.listSpecs(orgId).catch((e: unknown) => e);
      expect(error, orgId).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe("organization id");
      expect((error as Error).message).toContain(JSON.stringify(orgId));
    }
    for (const versionId of ["..", "%2e"]) {
      const error = await client.getVersion("org", "pets", versionId).catch((e: unknown) => e);
      expect((error as InvalidArgumentError).argument).toBe("version id");
    }
    expect(api.requests).toEqual([]);
  });

  it("builds URLs under /v1 of the base URL, accepting a base URL that already ends in /v1", async () => {
    const api = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    await clientFor(`${api.url}/v1/`).client.getSpec("acme", "pets");
    await clientFor(`${api.url}/gateway`).client.getSpec("acme", "pets");
    expect(api.requests.map((r) => r.url)).toEqual([
      "/v1/orgs/acme/openapi/pets",
      "/gateway/v1/orgs/acme/openapi/pets",
    ]);
  });

  it("checks slugs, limits and identifiers before sending anything", async () => {
    const api = await server((_request, response) => sendJson(response, 200, {}));
    const { client } = clientFor(api.url);

    const slugError = await caught(client.getSpec("acme", "Pets_API"));
    expect(slugError).toBeInstanceOf(InvalidSlugError);
    expect(slugError.message).toContain("uppercase");
    await expect(client.putSpec("acme", "a".repeat(101), { text: "x" })).rejects.toThrow("101 characters");
    await expect(client.createSpec("acme", "pets--v2", { text: "x" })).rejects.toBeInstanceOf(
      InvalidSlugError,
    );
    await expect(client.deleteSpec("acme", "")).rejects.toThrow("it is empty");
    for (const limit of [0, 1001, 1.5, Number.NaN]) {
      await expect(client.listSpecs("acme", { limit })).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(() => client.iterateSpecs("acme", { limit: 0 })).toThrow(InvalidArgumentError);
    expect(() => client.iterateVersions("acme", "Bad", {})).toThrow(InvalidSlugError);
    await expect(client.listSpecs("")).rejects.toThrow("organization id is empty");
    await expect(client.getVersion("acme", "pets", " ")).rejects.toThrow("version id is empty");
    await expect(client.listOrganizationsByEmailDomain("")).rejects.toThrow("email domain is empty");
    await expect(client.putSpec("acme", "pets", { text: "" })).rejects.toThrow("text is empty");
    await expect(client.putSpec("acme", "pets", { url: "file:///etc/passwd" })).rejects.toThrow("http(s)");
    expect(api.requests).toHaveLength(0);
  });

  it("refuses base URLs that could leak the token, and bad tokens, without echoing them", () => {
    expect(() => new GitBookClient({ token: TOKEN, baseUrl: "ftp://api.example" })).toThrow("http or https");
    const withPassword = (() => {
      try {
        new GitBookClient({ token: TOKEN, baseUrl: "https://user:hunter2@api.example" });
      } catch (error) {
        return error as Error;
      }
    })();
    expect(withPassword).toBeInstanceOf(InvalidArgumentError);
    expect(withPassword?.message).not.toContain("hunter2");
    expect(() => new GitBookClient({ token: TOKEN, baseUrl: "https://api.example/?a=1" })).toThrow("query");
    expect(() => new GitBookClient({ token: "" })).toThrow("token is empty");
    const badToken = `${TOKEN}\r\nX-Evil: 1`;
    const tokenError = (() => {
      try {
        new GitBookClient({ token: badToken });
      } catch (error) {
        return error as Error;
      }
    })();
    expect(tokenError?.message).toContain("line break");
    expect(tokenError?.message).not.toContain("secret-token");
    expect(() => new GitBookClient({ token: "gb_api_tökén" })).toThrow("non-ASCII");
    expect(() => new GitBookClient({ token: " gb_api_padded " })).toThrow("spaces");
  });
  it("does not show the token when the client itself is logged", () => {
    const client = new GitBookClient({ token: TOKEN });
    cleanups.add(() => client.close());
    expect(inspect(client, { depth: 20, showHidden: true })).not.toContain(TOKEN);
    expect(JSON.stringify(client)).not.toContain(TOKEN);
  });
});

describe("responses", () => {
  it("tells created from updated on PUT and accepts 204 on DELETE", async () => {
    const api = await server((request, response, index) => {
      if (request.method === "DELETE") return void response.writeHead(204).end();
      sendJson(response, index === 0 ? 201 : 200, specBody("pets"));
    });
    const { client } = clientFor(api.url);
    expect((await client.putSpec("acme", "pets", { url: "https://example.com/a.yaml" })).created).toBe(true);
    expect((await client.putSpec("acme", "pets", { text: "x" })).created).toBe(false);
    await expect(client.deleteSpec("acme", "pets")).resolves.toBeUndefined();
    expect(JSON.parse(api.requests[0]?.body ?? "")).toEqual({
      source: { url: "https://example.com/a.yaml" },
    });
  });

  it("keeps unknown processing states and error codes as strings", async () => {
    const api = await server((_request, response) =>
      sendJson(
        response,
        200,
        specBody("pets", {
          processingState: "archived",
          lastProcessErrorCode: "QUOTA_EXCEEDED",
          lastProcessedErrors: [{ message: "too big", code: "X" }],
        }),
      ),
    );
    const spec = await clientFor(api.url).client.getSpec("acme", "pets");
    expect(spec.processingState).toBe("archived");
    expect(spec.lastProcessErrorCode).toBe("QUOTA_EXCEEDED");
    expect(spec.lastProcessedErrors).toEqual([{ message: "too big", code: "X" }]);
  });

  it("rejects a success body that is not JSON or lacks required fields, naming the operation", async () => {
    const api = await server((request, response) => {
      if (request.url.endsWith("/html")) {
        response.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>");
      } else sendJson(response, 200, specBody("broken", { processingState: undefined }));
    });
    const { client } = clientFor(api.url);
    const html = await caught(client.getSpec("acme", "html"));
    expect(html).toBeInstanceOf(UnexpectedResponseError);
    expect(html.message).toContain("getOpenAPISpecBySlug");
    expect(html.message).toContain("text/html");
    const missing = await caught(client.getSpec("acme", "broken"));
    expect(missing).toBeInstanceOf(UnexpectedResponseError);
    expect(missing.message).toContain("body.processingState is missing");
  });

  it.each([
    [400, BadRequestError, "invalid_source", "Source is not a URL", "fix the input"],
    [401, AuthenticationError, 401, "Unauthorized token", "GITBOOK_TOKEN"],
    [403, PermissionDeniedError, 403, "Forbidden", 'cannot access organization "acme"'],
    [404, NotFoundError, 404, "Spec not found", 'No specification with slug "pets" in organization "acme"'],
    [409, ConflictError, "conflict", "Slug taken", "already exists"],
  ])(
    "turns a %i error body into a typed error with the service's code and message",
    async (status, Class, code, said, advice) => {
      const api = await server((_request, response) =>
        sendJson(response, status, { error: { code, message: said } }),
      );
      const error = await caught(clientFor(api.url).client.getSpec("acme", "pets"));
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(GitBookApiError);
      const apiError = error as GitBookApiError;
      expect(apiError).toMatchObject({ status, code, serviceMessage: said, method: "GET" });
      expect(apiError.path).toBe("/v1/orgs/acme/openapi/pets");
      expect(apiError.message).toContain(`GET /v1/orgs/acme/openapi/pets failed: ${status} ${said}.`);
      expect(apiError.message).toContain(advice);
      expect(apiError.request.headers.authorization).toBe("Bearer [REDACTED]");
      expectNoToken(apiError);
    },
  );

  it("names the organization when an organization path is not found", async () => {
    const api = await server((_request, response) =>
      sendJson(response, 404, { error: { code: 404, message: "Organization not found" } }),
    );
    const error = await caught(clientFor(api.url).client.listSpecs("nope"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('The organization "nope" does not exist or the token cannot see it');
  });

  it("falls back to the status text when the error body is not JSON", async () => {
    const api = await server((_request, response) =>
      response.writeHead(502, { "content-type": "text/html" }).end("<h1>proxy</h1>"),
    );
    const error = await caught(
      clientFor(api.url, { retry: { maxRetries: 0 } }).client.getSpec("acme", "pets"),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain("failed: 502 Bad Gateway.");
  });

  it("never puts the token in errors, even when the service echoes it", async () => {
    const api = await server((request, response) =>
      sendJson(response, 401, {
        error: { code: 401, message: `token ${request.headers.authorization} rejected` },
      }),
    );
    const error = await caught(clientFor(api.url).client.getSpec("acme", "pets"));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain("[REDACTED]");
    expectNoToken(error);
  });
});

describe("retries", () => {
  it("honours Retry-After in seconds on 429, then succeeds", async () => {
    const api = await server((_request, response, index) =>
      index === 0
        ? sendJson(response, 429, { error: { code: 429, message: "slow down" } }, { "retry-after": "2" })
        : sendJson(response, 200, specBody("pets")),
    );
    const { client, delays, retries } = clientFor(api.url);
    await expect(client.getSpec("acme", "pets")).resolves.toMatchObject({ slug: "pets" });
    expect(delays).toEqual([2000]);
    expect(retries).toEqual([{ attempt: 1, reason: "status 429 with Retry-After" }]);
    expect(api.requests).toHaveLength(2);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const now = Date.parse("2026-05-01T10:00:00Z");
    const api = await server((_request, response, index) =>
      index === 0
        ? sendJson(response, 503, undefined, { "retry-after": new Date(now + 3000).toUTCString() })
        : sendJson(response, 200, specBody("pets")),
    );
    const { client, delays } = clientFor(api.url, { now: () => now });
    await client.getSpec("acme", "pets");
    expect(delays).toEqual([3000]);
  });

  it("gives up at once, saying when to retry, if Retry-After exceeds maxRetryAfterMs", async () => {
    const api = await server((_request, response) =>
      sendJson(response, 429, { error: { code: 429, message: "Rate limited" } }, { "retry-after": "3600" }),
    );
    const { client, delays } = clientFor(api.url);
    const error = await caught(client.listSpecs("acme"));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(error.message).toContain("retry in 3600 s");
    expect(delays).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it("retries 5xx with exponential backoff, then succeeds", async () => {
    const api = await server((_request, response, index) =>
      index < 2
        ? sendJson(response, [503, 500][index] ?? 500, {})
        : sendJson(response, 200, specBody("pets")),
    );
    const { client, delays } = clientFor(api.url, { retry: { baseDelayMs: 100 } });
    await client.getSpec("acme", "pets");
    expect(delays).toEqual([50, 100]); // equal jitter with random() = 0: half of 100, half of 200
    expect(api.requests).toHaveLength(3);
  });

  it("makes exactly maxRetries + 1 attempts, then throws the last error", async () => {
    const api = await server((_request, response) =>
      sendJson(response, 500, { error: { code: 500, message: "boom" } }),
    );
    const { client, delays } = clientFor(api.url, { retry: { maxRetries: 3 } });
    const error = await caught(client.deleteSpec("acme", "pets"));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).attempts).toBe(4);
    expect(error.message).toContain("gave up after 4 attempts");
    expect(api.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
  });

  it("does not retry POST on a 500", async () => {
    const api = await server((_request, response) => sendJson(response, 500, {}));
    const error = await caught(clientFor(api.url).client.createSpec("acme", "pets", { text: "x" }));
    expect(error).toBeInstanceOf(ServerError);
    expect(api.requests).toHaveLength(1);
  });

  it("does not retry POST on a timeout", async () => {
    const api = await server(() => {}); // never answers
    const { client, delays } = clientFor(api.url, { requestTimeoutMs: 100 });
    const error = await caught(client.createSpec("acme", "pets", { text: "x" }));
    expect(error).toBeInstanceOf(GitBookTimeoutError);
    expect(api.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("times out an attempt that gets no answer, retries GET, and reports the timeout", async () => {
    const api = await server(() => {});
    const { client } = clientFor(api.url, { requestTimeoutMs: 100, retry: { maxRetries: 1 } });
    const error = await caught(client.getSpec("acme", "pets"));
    expect(error).toBeInstanceOf(GitBookTimeoutError);
    expect((error as GitBookTimeoutError).timeoutMs).toBe(100);
    expect(error.message).toContain(
      "GET /v1/orgs/acme/openapi/pets failed: no complete response within 100 ms",
    );
    expect(api.requests).toHaveLength(2);
    expectNoToken(error);
  });

  it("times out a response whose body never ends", async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"object":');
    });
    const error = await caught(
      clientFor(api.url, { requestTimeoutMs: 100, retry: { maxRetries: 0 } }).client.getSpec("acme", "pets"),
    );
    expect(error).toBeInstanceOf(GitBookTimeoutError);
  });

  it("reports a refused connection with the host and code, after retrying (POST too: nothing was sent)", async () => {
    const port = await closedPort();
    const { client, retries } = clientFor(`http://127.0.0.1:${port}`, { retry: { maxRetries: 2 } });
    const error = await caught(client.getSpec("acme", "pets"));
    expect(error).toBeInstanceOf(GitBookConnectionError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", host: `127.0.0.1:${port}`, attempts: 3 });
    expect(error.message).toContain(`could not get a response from 127.0.0.1:${port} (ECONNREFUSED`);
    expect(retries).toHaveLength(2);
    expectNoToken(error);

    const post = clientFor(`http://127.0.0.1:${port}`, { retry: { maxRetries: 1 } });
    await expect(post.client.createSpec("acme", "pets", { text: "x" })).rejects.toBeInstanceOf(
      GitBookConnectionError,
    );
    expect(post.retries).toHaveLength(1);
  });
});

describe("connections", () => {
  it("does not follow redirects, so the token never reaches another origin", async () => {
    const elsewhere = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    const api = await server((_request, response) =>
      response.writeHead(302, { location: `${elsewhere.url}/steal` }).end(),
    );
    const error = await caught(clientFor(api.url).client.getSpec("acme", "pets"));
    expect(error).toBeInstanceOf(UnexpectedRedirectError);
    expect((error as UnexpectedRedirectError).redirectOrigin).toBe(elsewhere.url);
    expect(error.message).toContain(`redirected to ${elsewhere.url}`);
    expect(error.message).not.toContain("/steal");
    expect(elsewhere.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
    expectNoToken(error);
  });

  it("reuses connections across sequential requests", async () => {
    const api = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    const { client } = clientFor(api.url);
    for (let i = 0; i < 10; i++) await client.getSpec("acme", "pets");
    expect(api.requests).toHaveLength(10);
    expect(api.connections()).toBeLessThan(10);
    expect(api.connections()).toBeLessThanOrEqual(2);
  });

  it("closes the dispatcher it created but leaves an injected one open", async () => {
    const api = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    const dispatcher = new Agent();
    cleanups.add(() => dispatcher.close());
    const { client } = clientFor(api.url, { dispatcher });
    await client.getSpec("acme", "pets");
    await client.close();
    expect(dispatcher.closed).toBe(false);
    await client.getSpec("acme", "pets");
    expect(api.requests).toHaveLength(2);

    const owned = clientFor(api.url).client;
    await owned.getSpec("acme", "pets");
    await owned.close();
    await owned.close(); // idempotent
    await expect(owned.getSpec("acme", "pets")).rejects.toBeInstanceOf(GitBookConnectionError);
  });
});

describe("pagination", () => {
  function pagedServer(total: number, repeatPage = false): Promise<LoopbackServer> {
    return server((request, response) => {
      const url = new URL(request.url, "http://x");
      const limit = Number(url.searchParams.get("limit") ?? "50");
      const start = repeatPage ? 0 : Number(url.searchParams.get("page") ?? "0");
      const slugs = Array.from({ length: total }, (_, i) => `spec-${i}`).slice(start, start + limit);
      const next =
        start + limit < total ? { next: { page: repeatPage ? "same" : String(start + limit) } } : {};
      sendJson(response, 200, { items: slugs.map((slug) => specBody(slug)), count: total, ...next });
    });
  }

  it("follows next.page until it is absent", async () => {
    const api = await pagedServer(5);
    const slugs: string[] = [];
    for await (const spec of clientFor(api.url).client.iterateSpecs("acme", { limit: 2 }))
      slugs.push(spec.slug);
    expect(slugs).toEqual(["spec-0", "spec-1", "spec-2", "spec-3", "spec-4"]);
    expect(api.requests.map((r) => r.url)).toEqual([
      "/v1/orgs/acme/openapi?limit=2",
      "/v1/orgs/acme/openapi?page=2&limit=2",
      "/v1/orgs/acme/openapi?page=4&limit=2",
    ]);
  });

  it("stops with an error when the service repeats a page id", async () => {
    const api = await pagedServer(5, true);
    const seen: string[] = [];
    const error = await caught(
      (async () => {
        for await (const spec of clientFor(api.url).client.iterateSpecs("acme", { limit: 2 }))
          seen.push(spec.slug);
      })(),
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain('"same" came back twice');
    expect(api.requests.length).toBeLessThanOrEqual(3);
  });
});
