import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedDocument } from "../../harness/emulator/gitbook-parser.ts";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";
import { call, waitForSpec } from "../support/emulator-fixtures.ts";
import { gitbookParseOpenAPI } from "./gitbook-reference.ts";

const ORG = "demo-org";

/** Every part of the upgrader at work: servers, components, body and form parameters, security, examples. */
const SWAGGER_RICH = `swagger: "2.0"
x-gitbook-sync:
  repository: acme/payments
  file: specs/payments.yaml
  digest: sha256:0f1e2d3c
info:
  title: Payments
  version: 2.1.0
  x-logo: {url: "https://example.com/logo.png"}
host: api.example.com
basePath: /v2
schemes: [https, http]
consumes: [application/json]
produces: [application/json]
x-webhooks:
  paymentDone:
    post:
      responses:
        "200": {description: ok}
securityDefinitions:
  oauth: {type: oauth2, flow: accessCode, authorizationUrl: "https://example.com/auth", tokenUrl: "https://example.com/token", scopes: {read: Read}}
  basic: {type: basic}
  key: {type: apiKey, in: header, name: X-Key}
parameters:
  limit: {name: limit, in: query, type: integer, minimum: 1, maximum: 100, default: 20}
  payment: {name: payment, in: body, schema: {$ref: "#/definitions/Payment"}}
responses:
  NotFound: {description: Not found, schema: {$ref: "#/definitions/Error"}}
paths:
  /payments:
    get:
      operationId: list
      parameters:
        - $ref: "#/parameters/limit"
        - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: multi}
      responses:
        "200":
          description: ok
          schema: {type: array, items: {$ref: "#/definitions/Payment"}}
          headers: {X-Rate: {type: integer}}
          examples: {application/json: [{id: p1}]}
        "404": {$ref: "#/responses/NotFound"}
    post:
      parameters:
        - {name: body, in: body, required: true, schema: {$ref: "#/definitions/Payment"}, x-example: {application/json: {id: p2}}}
      responses:
        "201": {description: created}
  /payments/{id}/receipt:
    put:
      consumes: [multipart/form-data]
      parameters:
        - {name: id, in: path, required: true, type: string}
        - {name: file, in: formData, type: file, required: true}
        - {name: note, in: formData, type: string}
      responses:
        "204": {description: stored}
definitions:
  Payment:
    type: object
    required: [id]
    properties:
      id: {type: string, example: p1}
      amount: {type: number, minimum: 0, exclusiveMinimum: true}
      data: {type: string, format: byte}
  Error:
    type: object
    properties: {message: {type: string}}
`;

const SWAGGER_NO_VERSION_JSON = JSON.stringify({
  swagger: "2.0",
  info: { title: "No version" },
  "x-ext-urls": { mine: "https://example.com/kept?" },
  paths: { "/a": { get: { responses: { "200": { description: "ok", schema: { type: "file" } } } } } },
});

const OPENAPI_30 = `openapi: 3.0.3
x-gitbook-sync: {repository: acme/api, example: 1}
x-webhooks: {w: {post: {responses: {"200": {description: ok}}}}}
x-ext-urls: {a: "https://example.com/a.yaml"}
info: {title: Three, version: ""}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: string, nullable: true, example: x}
`;

const OPENAPI_31 = `openapi: 3.1.0
x-gitbook-sync: {repository: acme/api}
info: {title: Three one, version: 1.0.0}
paths: {}
`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ processing: { pendingMs: 1, progressMs: 1 } });
});
afterAll(async () => {
  await emulator.close();
});

/** Uploads `text`, waits for processing, and answers the latest version's content. */
async function publish(
  slug: string,
  text: string,
): Promise<{ spec: Record<string, unknown>; content: unknown }> {
  const put = await call(emulator, "PUT", `/orgs/${ORG}/openapi/${slug}`, { json: { source: { text } } });
  expect(put.status).toBeLessThan(300);
  const spec = await waitForSpec(emulator, ORG, slug);
  const content = await call(emulator, "GET", `/orgs/${ORG}/openapi/${slug}/versions/latest/content`);
  return { spec, content: content.body };
}

type Entry = { filename: string; specification: Record<string, unknown> } & Record<string, unknown>;
const entriesOf = (content: unknown) => (content as { filesystem: Entry[] }).filesystem;

describe("version content: the emulator stores what GitBook's parser stores", () => {
  it.each([
    ["Swagger 2.0, YAML, every upgrade at work", "conf-swagger-rich", SWAGGER_RICH],
    ["Swagger 2.0, JSON, no info.version, a root x-ext-urls", "conf-swagger-json", SWAGGER_NO_VERSION_JSON],
    ["OpenAPI 3.0 (not upgraded)", "conf-openapi-30", OPENAPI_30],
    ["OpenAPI 3.1", "conf-openapi-31", OPENAPI_31],
  ])("%s: the same filesystem entry as the Scalar pipeline's, but its file name", async (_, slug, text) => {
    const { content } = await publish(slug, text);
    const [reference] = await gitbookParseOpenAPI(text);
    const [stored, ...others] = entriesOf(content);
    expect(others).toEqual([]);
    const { filename, ...rest } = stored as Entry;
    const { filename: referenceFilename, ...expected } = reference ?? { filename: "" };
    expect(rest).toEqual(expected);
    // GitBook's parser names every entrypoint openapi.json; the emulator keeps the upload's format.
    expect(referenceFilename).toBe("openapi.json");
    expect(filename).toBe(text.startsWith("{") ? "openapi.json" : "openapi.yaml");
  });

  it("upgrades Swagger 2.0 to OpenAPI 3.1.1 and keeps root x- keys at the root, as they were", async () => {
    const { content } = await publish("conf-swagger-keys", SWAGGER_RICH);
    const stored = entriesOf(content)[0]?.specification ?? {};
    const local = parseSource(SWAGGER_RICH, false) as Record<string, unknown>;
    expect(stored.openapi).toBe("3.1.1");
    expect(stored).not.toHaveProperty("swagger");
    expect(stored["x-gitbook-sync"]).toEqual(local["x-gitbook-sync"]);
    expect(stored.info).toEqual(local.info);
    expect(stored.servers).toEqual([
      { url: "https://api.example.com/v2" },
      { url: "http://api.example.com/v2" },
    ]);
    // The 3.0 → 3.1 step renames x-webhooks, wherever it is.
    expect(stored).not.toHaveProperty("x-webhooks");
    expect(stored.webhooks).toEqual(local["x-webhooks"]);
  });

  it("keeps root x- keys of OpenAPI 3.x, but drops x-ext-urls and fills an empty info.version", async () => {
    const { content } = await publish("conf-openapi-keys", OPENAPI_30);
    const stored = entriesOf(content)[0]?.specification ?? {};
    const local = parseSource(OPENAPI_30, false) as Record<string, unknown>;
    expect(stored.openapi).toBe("3.0.3");
    expect(stored["x-gitbook-sync"]).toEqual(local["x-gitbook-sync"]);
    expect(stored["x-webhooks"]).toEqual(local["x-webhooks"]);
    expect(stored).not.toHaveProperty("x-ext-urls");
    expect(stored.info).toEqual({ title: "Three", version: "0.0.1" });
    const { "x-ext-urls": _, info: __, ...untouched } = local;
    expect(stored).toMatchObject(untouched);
  });

  it.each([
    [
      "Swagger 2.0",
      'swagger: "2.0"\ninfo: {title: R, version: "1"}\nhost: a.example\ndefinitions: {A: {type: string}}\npaths: {}\n',
    ],
    ["OpenAPI 3.0", "openapi: 3.0.3\ninfo: {title: R, version: '1'}\npaths: {}\n"],
    ["OpenAPI 3.1", "openapi: 3.1.0\ninfo: {title: R, version: '1'}\npaths: {}\n"],
  ])(
    "%s: a root publish record of plain strings comes back deep-equal (emulator and Scalar pipeline)",
    async (version, body) => {
      const record = {
        tool: "gitbook-openapi",
        owner: "github.com/acme/widgets#pay",
        path: "specs/example/openapi.yaml",
        digest: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      };
      const text = `x-publish-record: ${JSON.stringify(record)}\n${body}`;
      const slug = `conf-record-${version.replace(/\W+/g, "-").toLowerCase()}`;
      const { content } = await publish(slug, text);
      const [reference] = await gitbookParseOpenAPI(text);
      expect(entriesOf(content)[0]?.specification["x-publish-record"]).toEqual(record);
      expect(reference?.specification).toHaveProperty(["x-publish-record"], record);
    },
  );

  it("transforms values inside an x- key of Swagger 2.0 like schemas (example, nullable, $ref)", () => {
    const stored = storedDocument({
      swagger: "2.0",
      info: { title: "t", version: "1" },
      paths: {},
      definitions: { A: { type: "string" } },
      "x-record": {
        plain: "kept",
        example: 1,
        nullable: true,
        type: "integer",
        ref: { $ref: "#/definitions/A" },
      },
    });
    expect(stored["x-record"]).toEqual({
      plain: "kept",
      examples: { default: { value: 1 } },
      type: ["integer", "null"],
      ref: { $ref: "#/components/schemas/A" },
    });
  });

  it("fails the processing of a Swagger 2.0 document the upgrader refuses, as GitBook does", async () => {
    const text = JSON.stringify({
      swagger: "2.0",
      info: { title: "Bad", version: "1" },
      paths: { "/a": { get: { parameters: [{ name: "x", type: "string" }], responses: {} } } },
    });
    await expect(gitbookParseOpenAPI(text)).rejects.toThrow(/Failed to convert Swagger 2.0/);
    await call(emulator, "PUT", `/orgs/${ORG}/openapi/conf-swagger-bad`, { json: { source: { text } } });
    const spec = await waitForSpec(emulator, ORG, "conf-swagger-bad");
    expect(spec).toMatchObject({
      lastProcessErrorCode: "PARSE_ERROR",
      lastProcessedErrors: [{ code: "V2_CONVERSION", message: expect.stringContaining('must have an "in"') }],
    });
    expect(spec).not.toHaveProperty("lastVersion");
  });

  it("serves the raw text as uploaded, whatever the stored document", async () => {
    const { spec } = await publish("conf-swagger-raw", SWAGGER_RICH);
    const raw = await call(
      emulator,
      "GET",
      `/orgs/${ORG}/openapi/conf-swagger-raw/versions/${spec.lastVersion}/content/raw`,
    );
    expect(raw.body).toEqual({ text: SWAGGER_RICH, format: "yaml" });
  });
});
