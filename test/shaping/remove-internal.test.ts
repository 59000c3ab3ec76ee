import { describe, expect, it } from "vitest";
import { danglingRefs, removeInternal } from "../../src/core/shaping/remove-internal.ts";

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
    expect(summary).toEqual({ marked: 8, operations: 3, components: 3, tags: 1 });
  });

  it("changes nothing in a document with nothing marked", () => {
    const document = payments() as Record<string, unknown>;
    const clean = JSON.parse(JSON.stringify(document).replaceAll('"x-internal":true', '"x-internal":false'));
    const copy = structuredClone(clean);
    expect(removeInternal(clean)).toEqual({ marked: 0, operations: 0, components: 0, tags: 0 });
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
