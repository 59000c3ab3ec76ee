import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { danglingRefs, removeInternal } from "../../src/core/shaping/remove-internal.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";
import {
  type InternalCase,
  NAMES_30,
  NEWER_OPERATIONS_32,
  TRUTHY_31,
  XNAMES_20,
  XNAMES_30,
} from "./internal-cases.ts";
import { markings } from "./internal-documents.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function payments() {
  return {
    openapi: "3.1.0",
    info: { title: "Payments", version: "1.0.0" },
    tags: [
      { name: "payments", description: "Take payments", "x-parent": "money" },
      { name: "money", description: "A parent tag: no operation of its own" },
      { name: "admin", description: "Back office" },
      { name: "beta", "x-internal": true },
    ],
    "x-tagGroups": [{ name: "All", tags: ["payments", "admin", "beta"] }],
    security: [{ apiKey: [] }],
    paths: {
      "/payments": {
        parameters: [{ $ref: "#/components/parameters/Trace" }],
        get: {
          tags: ["payments"],
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "debug", in: "query", "x-internal": true, schema: { type: "boolean" } },
            { name: "shard", in: "query", schema: ref("Shard") },
          ],
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: ref("Payment") } } },
          },
        },
        post: {
          "x-internal": true,
          tags: ["payments"],
          requestBody: { content: { "application/json": { schema: ref("NewPayment") } } },
          responses: { "201": { description: "created" } },
        },
      },
      "/admin/reports": {
        "x-internal": true,
        get: {
          tags: ["admin"],
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: ref("Report") } } },
          },
        },
      },
      "/experiments": {
        get: { tags: ["beta"], responses: { "200": { description: "ok" } } },
      },
      "/keys": {
        get: {
          tags: ["payments"],
          security: [{ internalKey: [] }],
          responses: { "200": { description: "ok" } },
        },
      },
    },
    components: {
      parameters: { Trace: { name: "trace", in: "header", schema: { type: "string" } } },
      schemas: {
        Payment: {
          type: "object",
          required: ["id", "riskScore"],
          properties: {
            id: { type: "string" },
            riskScore: { type: "number", "x-internal": true },
            method: {
              oneOf: [ref("Card"), ref("Ledger")],
              discriminator: {
                propertyName: "kind",
                mapping: { card: "#/components/schemas/Card", ledger: "#/components/schemas/Ledger" },
              },
            },
            audit: ref("Audit"),
          },
        },
        Card: { type: "object", properties: { kind: { type: "string" } } },
        Ledger: { "x-internal": true, type: "object", properties: { kind: { type: "string" } } },
        Audit: { type: "object", properties: { by: ref("Staff") } },
        Staff: { "x-internal": true, type: "object" },
        NewPayment: { type: "object", properties: { amount: ref("Money") } },
        Money: { type: "integer" },
        Report: { type: "object", properties: { total: ref("Money") } },
        Shard: { type: "integer" },
        Legacy: { type: "object", description: "never referenced: kept as it was" },
      },
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-Key" },
        internalKey: { "x-internal": true, type: "apiKey", in: "header", name: "X-Internal" },
      },
    },
  };
}

describe("remove-internal", () => {
  it("removes what is marked and what then breaks or goes unused, and leaves no dangling reference", () => {
    const document = payments();
    const summary = removeInternal(document);
    expect(danglingRefs(document)).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(["/payments", "/keys"]);
    const payments_ = document.paths["/payments"] as Record<string, unknown>;
    expect(Object.keys(payments_)).toEqual(["parameters", "get"]);
    expect((payments_.get as { parameters: Array<{ name: string }> }).parameters.map((p) => p.name)).toEqual([
      "limit",
      "shard",
    ]);
    // The marked tag, and the tag whose only operation went; the parent tag with none of its own stays.
    expect(document.tags.map((tag) => tag.name)).toEqual(["payments", "money"]);
    expect(document["x-tagGroups"]).toEqual([{ name: "All", tags: ["payments"] }]);
    // A requirement naming a removed scheme goes; the list it leaves empty goes too.
    expect(document.paths["/keys"].get).toEqual({
      tags: ["payments"],
      responses: { "200": { description: "ok" } },
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
    const { schemas } = document.components as { schemas: Record<string, Record<string, unknown>> };
    expect(Object.keys(schemas).sort()).toEqual(["Audit", "Card", "Legacy", "Payment", "Shard"]);
    expect(schemas.Payment).toEqual({
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string" },
        method: {
          oneOf: [ref("Card")],
          discriminator: { propertyName: "kind", mapping: { card: "#/components/schemas/Card" } },
        },
        audit: ref("Audit"),
      },
    });
    expect(schemas.Audit).toEqual({ type: "object", properties: {} });
    expect(Object.keys(document.components.securitySchemes)).toEqual(["apiKey"]);
    expect(document.components.parameters).toEqual(payments().components.parameters);
    expect(summary).toEqual({
      marked: 8,
      operations: 3,
      components: 3,
      tags: 1,
      unusual: [],
      unusualCount: 0,
    });
  });

  it("changes nothing in a document with nothing marked", () => {
    const document = payments() as Record<string, unknown>;
    const clean = JSON.parse(JSON.stringify(document).replaceAll('"x-internal":true', '"x-internal":false'));
    const copy = structuredClone(clean);
    expect(removeInternal(clean)).toEqual({
      marked: 0,
      operations: 0,
      components: 0,
      tags: 0,
      unusual: [],
      unusualCount: 0,
    });
    expect(clean).toEqual(copy);
  });

  it("takes a parameter whose schema is removed, and keeps a path item that had no operation", () => {
    const document = {
      swagger: "2.0",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: {
            parameters: [
              { name: "q", in: "body", schema: { $ref: "#/definitions/Secret" } },
              { name: "p", in: "query", type: "string" },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
        "/b": { parameters: [{ name: "x", in: "query", type: "string" }] },
      },
      definitions: { Secret: { "x-internal": true, type: "object" } },
    };
    removeInternal(document);
    expect(document.paths["/a"].get.parameters).toEqual([{ name: "p", in: "query", type: "string" }]);
    expect(document.paths["/b"]).toEqual({ parameters: [{ name: "x", in: "query", type: "string" }] });
    expect(document.definitions).toEqual({});
    expect(danglingRefs(document)).toEqual([]);
  });

  it("leaves literal data alone (an example holding `x-internal`), and reads a property named `default` as a property", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: {
        schemas: {
          Flag: {
            type: "object",
            properties: {
              default: { type: "boolean", "x-internal": true },
              name: { type: "string" },
            },
            example: { name: "a", "x-internal": true },
            examples: [{ "x-internal": true }],
            default: { name: "b", "x-internal": true },
            "x-notes": { "x-internal": true },
          },
        },
      },
    };
    removeInternal(document);
    expect(document.components.schemas.Flag).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      example: { name: "a", "x-internal": true },
      examples: [{ "x-internal": true }],
      default: { name: "b", "x-internal": true },
      "x-notes": { "x-internal": true },
    });
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the tests read documents along paths they just wrote
type Doc = Record<string, any>;

/** A document of components only: what a test of schemas needs around them. */
const withSchemas = (schemas: Doc, openapi = "3.0.3"): Doc => ({
  openapi,
  info: { title: "t", version: "1" },
  paths: {},
  components: { schemas },
});

function shapeCase(item: InternalCase) {
  const document = parse(item.text) as Record<string, unknown>;
  const version = String(document.openapi ?? document.swagger);
  expect(structuralIssues(document, version)).toEqual([]);
  const summary = removeInternal(document);
  const text = JSON.stringify(document);
  for (const name of item.gone) expect(text, `${item.file}: ${name}`).not.toContain(name);
  for (const name of item.kept) expect(text, `${item.file}: ${name}`).toContain(name);
  expect(danglingRefs(document)).toEqual([]);
  expect(structuralIssues(document, version)).toEqual([]);
  expect(markings(document)).toEqual([]);
  return { document: document as Doc, summary };
}

describe("remove-internal walks the document as OpenAPI (issue 26)", () => {
  it("1. removes marked entries whose names start with x-: a header, a property, a component, a scheme (3.0)", () => {
    const { document } = shapeCase(XNAMES_30);
    const response = document.paths["/accounts"].get.responses["200"];
    expect(Object.keys(response.headers)).toEqual(["x-rate-limit", "x-internal"]);
    expect(document.components.schemas).toEqual({
      Account: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
    });
    expect(Object.keys(document.components.securitySchemes)).toEqual(["apiKey"]);
    expect(document.paths["/accounts"].get.security).toEqual([{ apiKey: [] }]);
  });

  it("1. and in Swagger 2.0: response headers, definitions, securityDefinitions", () => {
    const { document } = shapeCase(XNAMES_20);
    expect(Object.keys(document.paths["/accounts"].get.responses["200"].headers)).toEqual(["x-rate-limit"]);
    expect(Object.keys(document.definitions)).toEqual(["Account"]);
    expect(document.definitions.Account.required).toEqual(["id"]);
    expect(Object.keys(document.securityDefinitions)).toEqual(["apiKey"]);
  });

  it("2. removes 3.2's query and additionalOperations entries whose tags are internal, and a marked entry alone", () => {
    const { document, summary } = shapeCase(NEWER_OPERATIONS_32);
    expect(document.paths["/records"]).toEqual({
      get: { operationId: "listRecords", tags: ["records"], responses: { "200": { description: "ok" } } },
      additionalOperations: {
        LINK: {
          operationId: "linkRecords",
          tags: ["records"],
          responses: { "204": { description: "linked" } },
        },
      },
    });
    expect(Object.keys(document.paths)).toEqual(["/records", "/reports"]);
    expect(document.tags).toEqual([{ name: "records" }]);
    // The marked tag counts as marked; `tags` counts the tags removed for losing their operations.
    expect(summary).toMatchObject({ marked: 2, operations: 4, tags: 0 });
  });

  it("3. takes any truthy marking as Redocly does, and reports every value that is not a boolean", () => {
    const { document, summary } = shapeCase(TRUTHY_31);
    expect(Object.keys(document.paths)).toEqual(["/false", "/zero", "/empty"]);
    expect(summary.unusualCount).toBe(6);
    expect(summary.unusual).toEqual([
      { pointer: "/paths/~1string-true/get", value: "true", marked: true },
      { pointer: "/paths/~1yes/get", value: "yes", marked: true },
      { pointer: "/paths/~1one/get", value: 1, marked: true },
      { pointer: "/paths/~1string-one/get", value: "1", marked: true },
      { pointer: "/paths/~1zero/get", value: 0, marked: false },
      { pointer: "/paths/~1empty/get", value: "", marked: false },
    ]);
  });

  it("4. removes links naming a removed operation (operationId, operationRef), their parameters naming a removed parameter, and mappings naming a removed schema", () => {
    const { document } = shapeCase(NAMES_30);
    expect(document.paths["/users"].post.responses["201"].links).toEqual({
      GetUser: { operationId: "getUser", parameters: { id: "$response.body#/id" } },
    });
    expect(document.components.schemas.Pet).toEqual({
      oneOf: [{ $ref: "#/components/schemas/Cat" }],
      discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
    });
  });

  it("removes tags from operations of callbacks and components' path items, and links between components", () => {
    const document: Doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      tags: [{ name: "hooks" }, { name: "secret", "x-internal": true }],
      paths: {
        "/subscribe": {
          post: {
            operationId: "subscribe",
            tags: ["hooks"],
            responses: { "201": { description: "ok", links: { Peek: { $ref: "#/components/links/Peek" } } } },
            callbacks: {
              onEvent: {
                "{$request.body#/url}": {
                  post: {
                    operationId: "onEvent",
                    tags: ["hooks", "secret"],
                    responses: { "200": { description: "ok" } },
                  },
                  put: {
                    operationId: "onSecretEvent",
                    tags: ["secret"],
                    responses: { "200": { description: "ok" } },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        links: { Peek: { operationId: "onSecretEvent" } },
        pathItems: {
          Shared: {
            get: {
              operationId: "shared",
              tags: ["hooks", "secret"],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      },
    };
    removeInternal(document);
    const callback = document.paths["/subscribe"].post.callbacks.onEvent["{$request.body#/url}"];
    expect(Object.keys(callback)).toEqual(["post"]);
    expect(callback.post.tags).toEqual(["hooks"]);
    expect(document.components.pathItems.Shared.get.tags).toEqual(["hooks"]);
    expect(JSON.stringify(document)).not.toContain("secret");
    expect(JSON.stringify(document)).not.toContain("Peek");
  });

  it("fails at its place when a marked part cannot go: the info, the document", () => {
    const info = { openapi: "3.0.3", info: { title: "t", version: "1", "x-internal": true }, paths: {} };
    expect(() => removeInternal(info)).toThrow(
      expect.objectContaining({ name: "InternalRemovalError", pointer: "/info" }),
    );
    const whole = { openapi: "3.0.3", "x-internal": "yes", info: { title: "t", version: "1" }, paths: {} };
    expect(() => removeInternal(whole)).toThrow(/the document itself is marked/);
  });

  it("takes a schema whose oneOf lost every member, up to the property holding it", () => {
    const document = withSchemas({
      Holder: {
        type: "object",
        properties: {
          kept: { type: "string" },
          either: { oneOf: [{ $ref: "#/components/schemas/A" }, { type: "object", "x-internal": true }] },
        },
      },
      A: { "x-internal": 1, type: "object" },
    });
    removeInternal(document);
    expect(document.components.schemas).toEqual({
      Holder: { type: "object", properties: { kept: { type: "string" } } },
    });
  });

  it("takes a removed property's name out of a required beside the allOf, and a discriminator naming it", () => {
    const document = withSchemas({
      Account: {
        allOf: [
          {
            type: "object",
            properties: { id: { type: "string" }, tenantKey: { type: "string", "x-internal": true } },
          },
          { type: "object", properties: { name: { type: "string" } } },
        ],
        required: ["id", "tenantKey", "name"],
        discriminator: { propertyName: "tenantKey" },
      },
    });
    removeInternal(document);
    expect(document.components.schemas.Account.required).toEqual(["id", "name"]);
    expect(JSON.stringify(document)).not.toContain("tenantKey");
  });

  it("takes a parameter or request body whose content lost every media type, and keeps such a response", () => {
    const internalJson = { "application/json": { "x-internal": true, schema: { type: "object" } } };
    const document: Doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: {
            parameters: [
              { name: "filter", in: "query", content: structuredClone(internalJson) },
              { name: "limit", in: "query", schema: { type: "integer" } },
            ],
            responses: { "200": { description: "ok", content: structuredClone(internalJson) } },
          },
          post: {
            requestBody: { content: structuredClone(internalJson) },
            responses: { "201": { description: "created" } },
          },
        },
      },
    };
    removeInternal(document);
    expect(document.paths["/a"]).toEqual({
      get: {
        parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
        responses: { "200": { description: "ok", content: {} } },
      },
    });
    expect(structuralIssues(document, "3.0.3")).toEqual([]);
  });

  it("takes the scopes of a removed OAuth flow out of requirements, and a scheme left without flows", () => {
    const document: Doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      security: [{ oauth: ["read", "admin:backoffice"] }, { partnerAuth: ["partner"] }],
      paths: {},
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: {
              implicit: { authorizationUrl: "https://example.com/auth", scopes: { read: "Read" } },
              clientCredentials: {
                "x-internal": true,
                tokenUrl: "https://example.com/token",
                scopes: { "admin:backoffice": "Back office" },
              },
            },
          },
          partnerAuth: {
            type: "oauth2",
            flows: {
              password: {
                "x-internal": "yes",
                tokenUrl: "https://example.com/token",
                scopes: { partner: "P" },
              },
            },
          },
        },
      },
    };
    removeInternal(document);
    expect(document.security).toEqual([{ oauth: ["read"] }]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(["oauth"]);
    expect(Object.keys(document.components.securitySchemes.oauth.flows)).toEqual(["implicit"]);
    expect(JSON.stringify(document)).not.toContain("backoffice");
    expect(structuralIssues(document, "3.0.3")).toEqual([]);
  });

  it("removes 3.2's discriminator defaultMapping naming a removed schema", () => {
    const document = withSchemas(
      {
        Pet: {
          type: "object",
          properties: { kind: { type: "string" } },
          discriminator: { propertyName: "kind", defaultMapping: "UnknownPet", mapping: { cat: "Cat" } },
        },
        Cat: { type: "object" },
        UnknownPet: { "x-internal": true, type: "object" },
      },
      "3.2.0",
    );
    removeInternal(document);
    expect(document.components.schemas.Pet.discriminator).toEqual({
      propertyName: "kind",
      mapping: { cat: "Cat" },
    });
    expect(JSON.stringify(document)).not.toContain("UnknownPet");
    expect(structuralIssues(document, "3.2.0")).toEqual([]);
  });

  it("walks a document 20,000 levels deep without overflowing the stack", () => {
    let schema: Record<string, unknown> = {
      type: "object",
      properties: { secret: { type: "string", "x-internal": true } },
    };
    const innermost = schema;
    for (let depth = 0; depth < 20_000; depth++) schema = { type: "array", items: schema };
    const document = withSchemas({ Deep: schema }, "3.1.0");
    expect(removeInternal(document).marked).toBe(1);
    expect(innermost.properties).toEqual({});
    expect(danglingRefs(document)).toEqual([]);
  });
});
