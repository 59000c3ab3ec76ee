/**
 * The client's request bodies against the request body schemas of the published OpenAPI description
 * (`@gitbook/api`), captured on a loopback server.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitBookClient } from "../../src/client/index.ts";
import { type LoopbackServer, sendJson, specBody, startServer } from "./loopback.ts";

const require = createRequire(import.meta.url);
const published = JSON.parse(readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema(published, "openapi.json");

function pointerTo(operationId: string): string {
  const escape = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");
  for (const [path, operations] of Object.entries(published.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.operationId === operationId) {
        return `openapi.json#/paths/${escape(path)}/${method}/requestBody/content/${escape("application/json")}/schema`;
      }
    }
  }
  throw new Error(`operation ${operationId} is not in the published description`);
}

/** Problems of `body` against the request body schema of `operationId`; empty when it conforms. */
function validateRequestBody(operationId: string, body: unknown): string[] {
  const validate = ajv.compile({ $ref: pointerTo(operationId) });
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

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
