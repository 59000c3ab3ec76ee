/**
 * Every read from GitBook is bounded (issue 16, items 3 and 4): in size, by a cap per kind of answer
 * that is never buffered past, and in time, by a call's own deadline inside the run's. Over real
 * loopback sockets.
 */
import { describe, expect, it } from "vitest";
import {
  type Handler,
  type StreamState,
  sendJson,
  specBody,
  streamLargeContent,
} from "../../harness/loopback/loopback.ts";
import {
  type ClientOptions,
  GitBookCallDeadlineError,
  GitBookClient,
  GitBookDeadlineError,
  InvalidArgumentError,
  RESPONSE_CAPS,
  ResponseTooLargeError,
  ServerError,
} from "../../src/adapters/gitbook/index.ts";
import { caught, useCleanups } from "../support/loopback-servers.ts";

const TOKEN = "gb_api_limits-token-0123456789";
const MiB = 1024 * 1024;
const CONTENT_PATH = "/v1/orgs/acme/openapi/pets/versions/v1/content";

const cleanups = useCleanups();
const server = cleanups.server;

function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): GitBookClient {
  const client = new GitBookClient({ token: TOKEN, baseUrl, random: () => 0, ...options });
  cleanups.add(() => client.close());
  return client;
}

/** A server handler streaming a content of `total` bytes, and what it managed to write. */
function endlessContent(total: number) {
  const state: StreamState = { written: 0, closedEarly: false };
  const handler: Handler = (_request, response) => streamLargeContent(response, total, state);
  return { state, handler };
}

describe("a cap per kind of answer (issue 16, item 3)", () => {
  it("refuses a content whose Content-Length announces more than its cap, without reading or retrying it", async () => {
    const announced = 600 * MiB;
    const api = await server((_request, response) => {
      // Announces 600 MB and sends a few bytes: a client that waited for the rest would hang.
      response.writeHead(200, { "content-type": "application/json", "content-length": String(announced) });
      response.write('{"filesystem":');
    });
    const error = await caught(clientFor(api.url).getVersionContent("acme", "pets", "v1"));

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.announced).toBe(true);
    expect(tooLarge.sizeBytes).toBe(announced);
    expect(tooLarge.capBytes).toBe(RESPONSE_CAPS.versionContent.bytes);
    expect(error.message).toContain(`GET ${CONTENT_PATH} (getOpenAPISpecVersionContentById)`);
    expect(error.message).toContain("announced 629145600 bytes (600 MiB)");
    expect(error.message).toContain("67108864-byte (64 MiB) cap for a version's content");
    expect(error.message).toContain("not retried");
    expect(api.requests).toHaveLength(1);
  });

  it("stops reading a streamed content one chunk past its cap, and holds nothing past it", async () => {
    const cap = RESPONSE_CAPS.versionContent.bytes;
    const stream = endlessContent(2 * cap);
    const api = await server(stream.handler);
    const error = await caught(clientFor(api.url).getVersionContent("acme", "pets", "v1"));

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.announced).toBe(false);
    expect(tooLarge.sizeBytes).toBeGreaterThan(cap);
    // The read stopped within one chunk past the cap (undici hands chunks of at most a few hundred KiB).
    expect(tooLarge.sizeBytes).toBeLessThan(cap + MiB);
    expect(error.message).toContain(
      `GET ${CONTENT_PATH} (getOpenAPISpecVersionContentById) sent more than 64 MiB`,
    );
    expect(error.message).toContain(`the read stopped at ${tooLarge.sizeBytes} bytes`);
    // The connection was closed: the server could not write much more than the socket buffers hold.
    await expect.poll(() => stream.state.closedEarly).toBe(true);
    expect(stream.state.written).toBeLessThan(cap + 32 * MiB);
    expect(api.requests).toHaveLength(1);
  });

  it("sizes each kind of answer on its own: a 3 MiB content is read, a 3 MiB specification is refused", async () => {
    const padding = "x".repeat(3 * MiB);
    const api = await server((request, response) => {
      if (request.url.endsWith("/content")) {
        sendJson(response, 200, { filesystem: [], url: `https://example/${padding}` });
      } else {
        sendJson(response, 200, specBody("pets", { sourceURL: `https://example/${padding}` }));
      }
    });
    const client = clientFor(api.url);

    const content = await client.getVersionContent("acme", "pets", "v1");
    expect(content.url).toHaveLength(3 * MiB + 16);

    const error = await caught(client.getSpec("acme", "pets"));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toContain("GET /v1/orgs/acme/openapi/pets (getOpenAPISpecBySlug) ");
    expect(error.message).toContain("2097152-byte (2 MiB) cap for a specification");
  });

  it("caps an error answer's body and still decides on its status: a 503 with a huge page is retried", async () => {
    const page = `<html>${"<p>busy</p>".repeat(MiB)}</html>`;
    const api = await server((_request, response, index) => {
      if (index === 0) {
        response.writeHead(503, { "content-type": "text/html" });
        response.end(page);
      } else {
        sendJson(response, 200, specBody("pets"));
      }
    });
    const client = clientFor(api.url, { sleep: async () => {} });
    expect((await client.getSpec("acme", "pets")).slug).toBe("pets");
    expect(api.requests).toHaveLength(2);

    const always = await server((_request, response) => {
      response.writeHead(500, { "content-type": "text/html" });
      response.end(page);
    });
    const error = await caught(
      clientFor(always.url, { sleep: async () => {}, retry: { maxRetries: 1 } }).getSpec("acme", "pets"),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain("Its body was over the 64 KiB cap for an error answer and was not read.");
    expect(always.requests).toHaveLength(2);
  });

  it("drops the body of an answer the call does not read, past its cap, and succeeds", async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("z".repeat(4 * MiB));
    });
    await expect(clientFor(api.url).deleteSpec("acme", "pets")).resolves.toBeUndefined();
  });
});

describe("a call's own deadline (issue 16, item 4)", () => {
  it("ends a content read that never answers at its own deadline, leaving the run's deadline to the others", async () => {
    const api = await server((request, response) => {
      if (request.url.endsWith("/content")) return; // never answers
      sendJson(response, 200, specBody("pets"));
    });
    // The run has a minute and each attempt 30 s: only the call's own deadline can end the read in time.
    const client = clientFor(api.url, { deadline: Date.now() + 60_000 });

    const error = await caught(
      client.getVersionContent("acme", "pets", "v1", { deadline: Date.now() + 300 }),
    );

    expect(error).toBeInstanceOf(GitBookCallDeadlineError);
    expect(error).not.toBeInstanceOf(GitBookDeadlineError);
    expect(error.message).toContain(
      `GET ${CONTENT_PATH} (getOpenAPISpecVersionContentById) did not complete`,
    );
    expect(error.message).toContain("within its own time budget");
    expect(error.message).not.toContain("'timeout'");
    // The run goes on: the next call has the run's time.
    expect((await client.getSpec("acme", "pets")).slug).toBe("pets");
  });

  it("bounds every retry of the call: no retry starts that its deadline cannot see through", async () => {
    const arrivals: number[] = [];
    const api = await server((_request, response) => {
      arrivals.push(Date.now());
      sendJson(response, 503, { message: "busy" });
    });
    const client = clientFor(api.url, {
      deadline: Date.now() + 60_000,
      retry: { maxRetries: 1000, baseDelayMs: 100, maxDelayMs: 100 },
    });

    const deadline = Date.now() + 1000;
    const error = await caught(client.getSpec("acme", "pets", { deadline }));

    // The call's deadline ended it, not the retry count: every attempt started before it. The verdict is
    // the last answer, or the deadline's error when the last attempt could not end by it (a loaded machine).
    expect(arrivals.length).toBeGreaterThan(0);
    expect(arrivals.length).toBeLessThan(1000);
    for (const at of arrivals) expect(at).toBeLessThanOrEqual(deadline);
    expect(error instanceof ServerError || error instanceof GitBookCallDeadlineError, String(error)).toBe(
      true,
    );
  });

  it("sends nothing when its own deadline has passed before the call starts", async () => {
    const api = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    const error = await caught(clientFor(api.url).getSpec("acme", "pets", { deadline: Date.now() - 1 }));
    expect(error).toBeInstanceOf(GitBookCallDeadlineError);
    expect(error.message).toContain(
      "GET /v1/orgs/acme/openapi/pets (getOpenAPISpecBySlug) was not sent: its own deadline had passed",
    );
    expect(api.requests).toHaveLength(0);
  });

  it("leaves the run's deadline in charge when it comes first", async () => {
    const api = await server(() => {});
    const client = clientFor(api.url, { deadline: Date.now() + 200 });
    const error = await caught(client.getSpec("acme", "pets", { deadline: Date.now() + 60_000 }));
    expect(error).toBeInstanceOf(GitBookDeadlineError);
    expect(error.message).toContain("the run's time limit");
  });

  it("refuses a deadline that is not a number before sending anything", async () => {
    const api = await server((_request, response) => sendJson(response, 200, specBody("pets")));
    const error = await caught(clientFor(api.url).getSpec("acme", "pets", { deadline: Number.NaN }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain("deadline");
    expect(api.requests).toHaveLength(0);
  });
});
