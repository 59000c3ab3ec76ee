/**
 * The GitBook client returns what the service sent, as it sent it: redaction belongs to the sinks (log,
 * summary, outputs, comment, CLI output), never to the data a run works with (issue 16, item 12: a slug
 * holding a piece of the token came back as `[REDACTED]-api-one`, and the run lost track of it). The
 * errors it builds from an answer are text to show: their messages hold no piece of the token, whole or
 * of 8+ characters (issue 8, item 9). Over real loopback sockets.
 */
import { describe, expect, it } from "vitest";
import { type Handler, sendJson, specBody } from "../../harness/loopback/loopback.ts";
import { GitBookClient } from "../../src/adapters/gitbook/index.ts";
import { FRAGMENT_LENGTH } from "../../src/core/text/redact.ts";
import { caught, useCleanups } from "../support/loopback-servers.ts";

const TOKEN = "gb_api_Zq8x/Yp3LmN7vR2tK9wB4cD6fH1jS5uE0x7Ww";

const cleanups = useCleanups();

async function clientAnswering(handler: Handler): Promise<GitBookClient> {
  const server = await cleanups.server(handler);
  return new GitBookClient({ token: TOKEN, baseUrl: server.url, retry: { maxRetries: 0 } });
}

function pieces(value: unknown): string[] {
  const text = typeof value === "string" ? value : JSON.stringify(value, Object.getOwnPropertyNames(value));
  const found: string[] = [];
  for (let i = 0; i + FRAGMENT_LENGTH <= TOKEN.length; i++) {
    const piece = TOKEN.slice(i, i + FRAGMENT_LENGTH);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/** The token as a JSON encoder that escapes every character (or only `/`, as PHP does) writes it. */
const unicodeEscaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const slashEscaped = TOKEN.replace(/\//g, "\\/");

describe("a service that echoes the token", () => {
  it("returns every field of an answer as the service sent it, however the JSON escapes it", async () => {
    const client = await clientAnswering((_request, response) => {
      const body = JSON.stringify(
        specBody("pets", {
          id: "ID",
          urls: { location: `https://api.example/${TOKEN}`, app: "APP" },
          lastProcessedErrors: [{ message: `cut at ${TOKEN.slice(0, 11)}` }, { message: "SLASH" }],
          lastProcessErrorCode: "E",
        }),
      )
        .replace('"ID"', `"${unicodeEscaped}"`)
        .replace('"APP"', `"https://app.example/${slashEscaped}"`)
        .replace('"SLASH"', `"${slashEscaped.slice(0, 14)}"`);
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });

    const spec = await client.getSpec("acme", "pets");

    expect(spec.id).toBe(TOKEN);
    expect(spec.urls).toEqual({
      location: `https://api.example/${TOKEN}`,
      app: `https://app.example/${TOKEN}`,
    });
    expect(spec.lastProcessedErrors?.map((e) => e.message)).toEqual([
      `cut at ${TOKEN.slice(0, 11)}`,
      TOKEN.slice(0, 13),
    ]);
  });

  it("returns a slug that holds a piece of the token as it is, and asks for it as it is", async () => {
    // Lowercase letters and digits of the token, as a file name could hold them by chance.
    const slug = `${TOKEN.slice(12, 20).toLowerCase()}-api-one`;
    expect(slug).toMatch(/^[a-z0-9]{8}-api-one$/);
    const server = await cleanups.server((request, response) => {
      if (request.url.endsWith("/openapi")) {
        sendJson(response, 200, { items: [specBody(slug)] });
      } else sendJson(response, 200, specBody(slug));
    });
    const client = new GitBookClient({ token: TOKEN, baseUrl: server.url, retry: { maxRetries: 0 } });

    expect((await client.getSpec("acme", slug)).slug).toBe(slug);
    expect((await client.listSpecs("acme")).items.map((spec) => spec.slug)).toEqual([slug]);
    expect(server.requests[0]?.url).toBe(`/v1/orgs/acme/openapi/${slug}`);
  });

  it("has it removed from wrong-shaped answers, error bodies, content types and redirects", async () => {
    const answers: Handler[] = [
      (_q, r) => sendJson(r, 200, { ...specBody("pets"), object: TOKEN }),
      (_q, r) => sendJson(r, 200, { ...specBody("pets"), slug: 7, object: `${TOKEN.slice(0, 20)}` }),
      (_q, r) => sendJson(r, 400, { error: { code: 400, message: `bad token ${TOKEN.slice(3)}` } }),
      (_q, r) =>
        r.writeHead(422, { "content-type": "application/json" }).end(`{"message":"${unicodeEscaped}"}`),
      (_q, r) => r.writeHead(200, { "content-type": `text/${TOKEN}` }).end("ok"),
      (_q, r) => r.writeHead(302, { location: `https://${TOKEN.replace("/", "")}.example/` }).end(),
    ];
    for (const answer of answers) {
      const client = await clientAnswering(answer);
      const error = await caught(client.getSpec("acme", "pets"));
      expect(error.message).toContain("[REDACTED]");
      expect(pieces(error)).toEqual([]);
    }
  });
});
