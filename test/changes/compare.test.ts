import { describe, expect, it } from "vitest";
import {
  type ApiChange,
  changeLine,
  compareApis,
  isAllowed,
  MAX_MESSAGE_LENGTH,
} from "../../src/core/changes/index.ts";
import { baseDocument } from "./cases.ts";

const change = (over: Partial<ApiChange> = {}): ApiChange => ({
  kind: "operation-removed",
  path: "/pets/{id}",
  method: "DELETE",
  operationId: "deletePet",
  location: "#/paths/~1pets~1{id}/delete",
  message: "operation removed",
  ...over,
});

describe("isAllowed", () => {
  it("matches by operationId, by path and by METHOD /path in any case", () => {
    expect(isAllowed(change(), ["deletePet"])).toBe(true);
    expect(isAllowed(change(), ["/pets/{id}"])).toBe(true);
    expect(isAllowed(change(), ["DELETE /pets/{id}"])).toBe(true);
    expect(isAllowed(change(), ["delete /pets/{id}"])).toBe(true);
    expect(isAllowed(change(), ["  delete   /pets/{id}  "])).toBe(true);
  });

  it("does not match other operations, other paths, blanks or partial names", () => {
    expect(isAllowed(change(), [])).toBe(false);
    expect(isAllowed(change(), ["", "   "])).toBe(false);
    expect(isAllowed(change(), ["GET /pets/{id}"])).toBe(false);
    expect(isAllowed(change(), ["/pets"])).toBe(false);
    expect(isAllowed(change(), ["deletepet"])).toBe(false);
    expect(isAllowed(change(), ["/pets/{petId}"])).toBe(false);
    expect(isAllowed(change(), ["DELETE/pets/{id}"])).toBe(false);
  });

  it("matches a document-wide change only by nothing", () => {
    const global = change({
      path: undefined,
      method: undefined,
      operationId: undefined,
      kind: "security-added",
    });
    expect(isAllowed(global, ["deletePet", "/pets/{id}", "DELETE /pets/{id}"])).toBe(false);
  });

  it("matches a path-level change by its path but not by a method", () => {
    const removed = change({ method: undefined, operationId: undefined, kind: "path-removed" });
    expect(isAllowed(removed, ["/pets/{id}"])).toBe(true);
    expect(isAllowed(removed, ["DELETE /pets/{id}"])).toBe(false);
  });
});

describe("compareApis: hostile documents", () => {
  const all = (r: { breaking: ApiChange[]; other: ApiChange[] }) => [...r.breaking, ...r.other];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none is left
  const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

  it("escapes control characters from paths, names and values, one line each", () => {
    const before = baseDocument("3.0");
    const evil = "/evil\n::error::boom\r\u0007\u2028{id}";
    before.paths[evil] = { get: { operationId: "x\ny", responses: { "200": { description: "ok" } } } };
    before.paths["/pets"].get.parameters.push({
      name: "p\u001b[31m",
      in: "query",
      schema: { type: "string", enum: ["a\nb", "c"] },
    });
    const after = structuredClone(before);
    delete after.paths[evil];
    after.paths["/pets"].get.parameters.at(-1).schema.enum = ["c"];
    after.paths["/pets"].get.parameters.push({
      name: "q\u0000\u0085",
      in: "header",
      required: true,
      schema: {},
    });
    const changes = all(compareApis(before, after));
    expect(changes.map((c) => c.kind).sort()).toEqual([
      "enum-value-removed",
      "path-removed",
      "required-parameter-added",
    ]);
    for (const c of changes) {
      expect(c.message).not.toMatch(CONTROL);
      expect(changeLine(c)).not.toMatch(CONTROL);
      expect(c.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    }
    const removed = changes.find((c) => c.kind === "path-removed");
    expect(removed && changeLine(removed)).toBe(
      "/evil\\u000a::error::boom\\u000d\\u0007\\u2028{id}: path removed",
    );
    expect(removed?.path).toBe(evil); // the raw path stays available for matching and pointers
  });

  it("bounds messages about very long paths and names", () => {
    const before = baseDocument("3.1");
    const long = `/${"a".repeat(100_000)}`;
    before.paths[long] = { get: { responses: { "200": { description: "ok" } } } };
    const after = structuredClone(before);
    after.paths[long].get.parameters = [
      { name: "n".repeat(50_000), in: "query", required: true, schema: {} },
    ];
    const changes = all(compareApis(before, after));
    expect(changes.map((c) => c.kind)).toEqual(["required-parameter-added"]);
    const [c] = changes;
    expect(c?.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(c && changeLine(c).startsWith("GET /aaaa")).toBe(true);
    expect(c?.message).toMatch(/^new required query parameter n+…$/);
    expect(c?.path).toBe(long);
  });

  it("refuses what is not an OpenAPI document, naming the side", () => {
    expect(() => compareApis({ foo: 1 }, baseDocument("3.0"))).toThrow(/base document is not/);
    expect(() => compareApis(baseDocument("3.0"), "text")).toThrow(/head document is not/);
    expect(() => compareApis(null, undefined)).toThrow(TypeError);
  });

  it("treats a path whose parameter was renamed as the same path", () => {
    const before = baseDocument("3.0");
    const after = structuredClone(before);
    after.paths["/pets/{petId}"] = after.paths["/pets/{id}"];
    delete after.paths["/pets/{id}"];
    after.paths["/pets/{petId}"].parameters[0].name = "petId";
    const result = compareApis(before, after);
    expect(result.breaking.map((c) => c.kind)).not.toContain("path-removed");
    expect(result.breaking.map((c) => c.kind)).not.toContain("operation-removed");
  });

  it("compares a Swagger 2.0 document with an OpenAPI 3 one", () => {
    const result = compareApis(baseDocument("2.0"), baseDocument("3.0"));
    expect(result.breaking).toEqual([]);
  });

  it("reports a new required request body and a relaxed security as their own kinds", () => {
    const before = baseDocument("3.0");
    before.security = [{ apiKey: [] }];
    const after = structuredClone(before);
    after.security = [{ apiKey: [] }, {}];
    after.paths["/pets/{id}"].delete.requestBody = {
      required: true,
      content: { "application/json": { schema: { type: "object" } } },
    };
    const result = compareApis(before, after);
    expect(result.breaking.map((c) => c.kind)).toEqual(["required-request-body-added"]);
    expect(result.other.map((c) => c.kind)).toEqual(["security-relaxed"]);
  });
});

describe("compareApis: traps and cost", () => {
  const all = (r: { breaking: ApiChange[]; other: ApiChange[] }) => [...r.breaking, ...r.other];

  it("reads a $ref with siblings as its target: no enum value 'added' when the siblings go", () => {
    const before = baseDocument("3.0");
    before.components.schemas.Status = { type: "string", enum: ["available", "sold", "pending"] };
    before.components.schemas.Pet.properties.status = {
      type: "string",
      $ref: "#/components/schemas/Status",
      nullable: true,
      description: "The status",
    };
    const after = structuredClone(before);
    after.components.schemas.Pet.properties.status = { $ref: "#/components/schemas/Status" };
    const kinds = all(compareApis(before, after)).map((c) => c.kind);
    expect(kinds).not.toContain("enum-value-added");
    expect(kinds).not.toContain("enum-added");
    expect(new Set(kinds)).toEqual(new Set(["type-narrowed"])); // only null is gone
  });

  it("says a change in a schema reused along 2^40 paths once per operation, at its shortest place", () => {
    const make = () => {
      const doc = baseDocument("3.0");
      const schemas = doc.components.schemas;
      // Layer i has two properties that both refer to layer i + 1: 2^40 ways down to the last one.
      for (let i = 0; i < 40; i++)
        schemas[`L${i}`] = {
          type: "object",
          properties: {
            left: { $ref: `#/components/schemas/L${i + 1}` },
            right: { $ref: `#/components/schemas/L${i + 1}` },
          },
        };
      schemas.L40 = { type: "object", properties: { leaf: { type: "string" } } };
      schemas.Pet.properties.tree = { $ref: "#/components/schemas/L0" };
      return doc;
    };
    const before = make();
    const after = make();
    delete after.components.schemas.L40.properties.leaf;
    const result = compareApis(before, after);
    const removed = result.breaking.filter((c) => c.kind === "property-removed");
    // Pet is returned by three operations (list, create, get): one change each.
    expect(removed.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      "GET /pets",
      "GET /pets/{id}",
      "POST /pets",
    ]);
    expect(removed[0]?.message).toMatch(/tree(\.left){40}\.leaf: property removed$/);
  });

  it("compares a self-referencing schema without end", () => {
    const before = baseDocument("3.1");
    before.components.schemas.Pet.properties.parent = { $ref: "#/components/schemas/Pet" };
    before.components.schemas.Pet.properties.children = {
      type: "array",
      items: { allOf: [{ $ref: "#/components/schemas/Pet" }] },
    };
    const after = structuredClone(before);
    after.components.schemas.Pet.properties.name.type = "integer";
    const changes = compareApis(before, after).breaking.filter(
      (c) => c.path === "/pets/{id}" && c.method === "GET",
    );
    expect(changes.map((c) => c.message)).toEqual([
      "response 200 (application/json) name: type string → integer",
    ]);
  });
});

describe("compareApis: what real releases taught", () => {
  const all = (r: { breaking: ApiChange[]; other: ApiChange[] }) => [...r.breaking, ...r.other];

  it("keeps two paths that differ only in their variable names apart when both exist on both sides", () => {
    const before = baseDocument("3.0");
    before.paths["/pets/{name}"] = structuredClone(before.paths["/pets/{id}"]);
    before.paths["/pets/{name}"].parameters[0].name = "name";
    before.paths["/pets/{name}"].get.operationId = "getPetByName";
    const after = structuredClone(before);
    expect(all(compareApis(before, after))).toEqual([]);
    // One of the two renamed alone still matches by its template.
    after.paths["/pets/{petId}"] = after.paths["/pets/{id}"];
    delete after.paths["/pets/{id}"];
    after.paths["/pets/{petId}"].parameters[0].name = "petId";
    expect(all(compareApis(before, after))).toEqual([]);
  });

  it("matches a variant renamed with the same content, and reordered unnamed variants, as no change", () => {
    const before = baseDocument("3.1");
    const schemas = before.components.schemas;
    schemas.Card = { type: "object", properties: { last4: { type: "string" } } };
    schemas.Pet.properties.paidWith = { anyOf: [{ type: "string" }, { $ref: "#/components/schemas/Card" }] };
    schemas.Pet.properties.shape = {
      oneOf: [
        { type: "integer" },
        { type: "object", properties: { x: { type: "number" } } },
        { type: "boolean" },
      ],
    };
    const after = structuredClone(before);
    after.components.schemas.CardDetails = after.components.schemas.Card;
    delete after.components.schemas.Card;
    after.components.schemas.Pet.properties.paidWith.anyOf[1] = { $ref: "#/components/schemas/CardDetails" };
    after.components.schemas.Pet.properties.shape.oneOf.reverse();
    expect(all(compareApis(before, after))).toEqual([]);
  });

  it("does not call two request variants merged into one wider variant removed", () => {
    const before = baseDocument("3.0");
    before.components.schemas.NewPet.properties.labels = {
      oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    };
    const after = structuredClone(before);
    after.components.schemas.NewPet.properties.labels = {
      oneOf: [{ type: ["string", "array"], items: { type: "string" } }],
    };
    expect(compareApis(before, after).breaking).toEqual([]);
  });

  it("lists breaking changes first when there are more changes than it lists", () => {
    const before = baseDocument("3.0");
    for (let i = 0; i < 12_000; i++)
      before.paths[`/a${i}`] = { get: { responses: { "200": { description: "ok" } } } };
    const after = structuredClone(before);
    for (let i = 0; i < 12_000; i++)
      after.paths[`/b${i}`] = { get: { responses: { "200": { description: "ok" } } } };
    for (let i = 0; i < 12_000; i++) delete after.paths[`/a${i}`];
    after.paths["/pets"].get.parameters[0].required = true;
    const result = compareApis(before, after);
    expect(result.breaking.length).toBe(12_001);
    expect(result.breaking.map((c) => c.kind)).toContain("parameter-made-required");
    expect(result.other.length).toBe(20_000 - 12_001);
    expect(result.omitted).toBe(12_000 - (20_000 - 12_001));
  });

  it("keeps what changed in a message about a deep place, cutting the place in its middle", () => {
    const before = baseDocument("3.0");
    let node = before.components.schemas.Pet;
    for (let i = 0; i < 30; i++) {
      node.properties[`level_${i}_with_a_long_name`] = { type: "object", properties: {} };
      node = node.properties[`level_${i}_with_a_long_name`];
    }
    node.properties.leaf = { type: "string" };
    const after = structuredClone(before);
    let other = after.components.schemas.Pet;
    for (let i = 0; i < 30; i++) other = other.properties[`level_${i}_with_a_long_name`];
    delete other.properties.leaf;
    const [removed] = compareApis(before, after).breaking;
    expect(removed?.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(removed?.message).toMatch(
      /^response 200 \(application\/json\) (\[\]\.)?level_0.*….*level_29_with_a_long_name\.leaf: property removed$/,
    );
  });
});

describe("compareApis: a schema that becomes one of several", () => {
  const all = (r: { breaking: ApiChange[]; other: ApiChange[] }) => [...r.breaking, ...r.other];

  it("compares a plain schema with the closest variant of the anyOf it became", () => {
    const before = baseDocument("3.0");
    before.components.schemas.NewPet.properties.tag = { type: "string", maxLength: 5000 };
    before.components.schemas.Pet.properties.owner = {
      type: "object",
      properties: { name: { type: "string" } },
    };
    const after = structuredClone(before);
    // Stripe's way of letting a field be cleared with "".
    after.components.schemas.NewPet.properties.tag = {
      anyOf: [
        { type: "string", maxLength: 5000 },
        { type: "string", enum: [""] },
      ],
    };
    after.components.schemas.Pet.properties.owner = {
      oneOf: [{ type: "object", properties: { name: { type: "string" } } }, { type: "null" }],
    };
    const changes = all(compareApis(before, after));
    expect(changes.map((c) => c.kind).sort()).toEqual([
      "variant-added",
      "variant-added",
      "variant-added",
      "variant-added",
    ]);
    expect(changes.every((c) => /: now one of 2 variants$/.test(c.message))).toBe(true);
    // Becoming a oneOf in a response is breaking (a client may now receive the other variant); in a request it is not.
    const result = compareApis(before, after);
    expect(result.breaking.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      "GET /pets",
      "GET /pets/{id}",
      "POST /pets",
    ]);
  });

  it("reads an enum split over nested variants, type: object beside them, as the union of their values", () => {
    // The real case (issue 27): "now limited to RSA" although the head also allows EC.
    const before = baseDocument("3.0");
    before.components.schemas.NewPet.properties.key = {
      type: "object",
      properties: { kty: { type: "string" } },
    };
    const after = structuredClone(before);
    after.components.schemas.NewPet.properties.key = {
      type: "object",
      oneOf: [
        { oneOf: [{ properties: { kty: { type: "string", enum: ["RSA"] }, n: { type: "string" } } }] },
        { properties: { kty: { type: "string", enum: ["EC"] }, crv: { type: "string" } } },
      ],
    };
    const result = compareApis(before, after);
    expect(result.breaking.map((c) => c.message)).toEqual([
      'request body (application/json, application/xml) key.kty: now limited to "RSA", "EC"',
    ]);
    expect(result.other.map((c) => c.message).sort()).toEqual([
      "request body (application/json, application/xml) key.crv: property added",
      "request body (application/json, application/xml) key.n: property added",
      "request body (application/json, application/xml) key: now one of 2 variants",
    ]);
  });

  it("matches variants that each gained an optional property with their own, not with one another", () => {
    const before = baseDocument("3.0");
    before.components.schemas.NewPet.properties.shape = {
      oneOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    };
    const after = structuredClone(before);
    after.components.schemas.NewPet.properties.shape.oneOf[0].properties.a2 = { type: "string" };
    after.components.schemas.NewPet.properties.shape.oneOf[1].properties.b2 = { type: "string" };
    const changes = all(compareApis(before, after));
    expect(changes.map((c) => c.message).sort()).toEqual([
      "request body (application/json, application/xml) shape.(#1).a2: property added",
      "request body (application/json, application/xml) shape.(#2).b2: property added",
    ]);
  });

  it("lists changes to operations before changes deep in schemas when it cannot list them all", () => {
    const before = baseDocument("3.0");
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 21_000; i++) props[`p${i}`] = { type: "string" };
    const after = structuredClone(before);
    Object.assign(after.components.schemas.Pet.properties, props);
    after.paths["/stores"] = { get: { responses: { "200": { description: "ok" } } } };
    const result = compareApis(before, after);
    expect(result.other.length).toBe(20_000);
    expect(result.other[0]?.kind).toBe("operation-added");
    expect(result.omitted).toBeGreaterThan(0);
  });
});
