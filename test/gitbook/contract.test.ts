/**
 * The client's request bodies against the request body schemas of the published OpenAPI description
 * (`@gitbook/api`, through the shared contract helpers), captured on a loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackServer, sendJson, specBody, startServer } from "../../harness/loopback/loopback.ts";
import { GitBookClient } from "../../src/adapters/gitbook/index.ts";
import { validateRequestBody, validateResponse } from "../contract/published-spec.ts";

let api: LoopbackServer;
let client: GitBookClient;

beforeAll(async () => {
  api = await startServer((_request, response) => sendJson(response, 201, specBody("pets")));
  client = new GitBookClient({ token: "contract-token", baseUrl: api.url });
});

afterAll(async () => {
  await client.close();
  await api.close();
});

async function bodyOf(send: () => Promise<unknown>): Promise<unknown> {
  const before = api.requests.length;
  await send();
  expect(api.requests).toHaveLength(before + 1);
  return JSON.parse(api.requests.at(-1)?.body ?? "");
}

describe("request bodies conform to the published description", () => {
  it("is able to tell a wrong body from a right one", () => {
    expect(validateRequestBody("createOpenAPISpec", { slug: "pets" })).not.toEqual([]);
    expect(validateRequestBody("createOrUpdateOpenAPISpecBySlug", { source: { text: "" } })).not.toEqual([]);
    expect(
      validateRequestBody("createOrUpdateOpenAPISpecBySlug", { source: { url: "not a url" } }),
    ).not.toEqual([]);
  });

  it.each([
    ["text", { text: "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n" }],
    ["url", { url: "https://example.com/specs/pets.yaml" }],
  ])("createOpenAPISpec from %s", async (_kind, source) => {
    const body = await bodyOf(() => client.createSpec("acme", "pets-api", source));
    expect(body).toEqual({ slug: "pets-api", source });
    expect(validateRequestBody("createOpenAPISpec", body)).toEqual([]);
  });

  it.each([
    ["text", { text: '{"openapi":"3.0.3"}' }],
    ["url", { url: "https://example.com/specs/pets.json" }],
  ])("createOrUpdateOpenAPISpecBySlug from %s", async (_kind, source) => {
    const body = await bodyOf(() => client.putSpec("acme", "pets-api", source));
    expect(body).toEqual({ source });
    expect(validateRequestBody("createOrUpdateOpenAPISpecBySlug", body)).toEqual([]);
  });
});

describe("the loopback fixtures are realistic", () => {
  it("the specification served by the transport tests conforms to the published response schema", () => {
    expect(
      validateResponse("GET", "/v1/orgs/{organizationId}/openapi/{specSlug}", 200, specBody("pets")),
    ).toEqual([]);
    expect(
      validateResponse("GET", "/v1/orgs/{organizationId}/openapi", 200, {
        items: [specBody("a")],
        count: 1,
        next: { page: "p2" },
      }),
    ).toEqual([]);
  });
});
