import { describe, expect, it } from "vitest";
import { canonicalizeInternalRefs } from "../../src/bundling/canonical-refs.ts";

describe("canonicalizeInternalRefs", () => {
  it("rewrites a pointer that passes through another $ref to the node's own path", () => {
    const document = {
      components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
      paths: { "/pets": { schema: { $ref: "#/components/schemas/Pet" } } },
      other: { $ref: "#/paths/~1pets/schema/properties/name" },
    };
    canonicalizeInternalRefs(document);

    expect(document.other.$ref).toBe("#/components/schemas/Pet/properties/name");
  });

  it("follows chains of references", () => {
    const document = {
      a: { $ref: "#/b" },
      b: { $ref: "#/c" },
      c: { x: { y: 1 } },
      use: { $ref: "#/a/x/y" },
    };
    canonicalizeInternalRefs(document);

    expect(document.use.$ref).toBe("#/c/x/y");
  });

  it("leaves direct pointers as they were written", () => {
    const document = { "a/b": { "{id}": 1 }, use: { $ref: "#/a~1b/%7Bid%7D" } };
    canonicalizeInternalRefs(document);

    expect(document.use.$ref).toBe("#/a~1b/%7Bid%7D");
  });

  it("leaves circular and dangling references alone", () => {
    const document = {
      a: { $ref: "#/b" },
      b: { $ref: "#/a" },
      use: { $ref: "#/a/x" },
      gone: { $ref: "#/nope/x" },
    };
    canonicalizeInternalRefs(document);

    expect(document.use.$ref).toBe("#/a/x");
    expect(document.gone.$ref).toBe("#/nope/x");
  });
});
