import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findExternalRefs, mayReferenceOtherFiles } from "../../src/core/bundling/external-refs.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";
import { referenceTree } from "../support/reference-tree.ts";

describe("mayReferenceOtherFiles", () => {
  it("clears texts whose every $ref points inside the document", () => {
    expect(mayReferenceOtherFiles("openapi: 3.1.0\ninfo: {title: A, version: '1'}\npaths: {}\n")).toBe(false);
    expect(mayReferenceOtherFiles("schema:\n  $ref: '#/components/schemas/Pet'\n")).toBe(false);
    expect(mayReferenceOtherFiles('{"schema": {"$ref": "#/definitions/Pet"}}')).toBe(false);
    expect(mayReferenceOtherFiles("schema:\n  $ref: >-\n    #/components/schemas/Pet\n")).toBe(false);
  });

  it("clears the word mapping in prose and escapes that spell no letter", () => {
    expect(mayReferenceOtherFiles("info:\n  description: A mapping of users to teams\n")).toBe(false);
    expect(mayReferenceOtherFiles('{"description": "the mapping of fields: caf\\u00e9 \\u0026 more"}')).toBe(
      false,
    );
  });

  it.each([
    ["a file", "schema:\n  $ref: pet.yaml\n"],
    ["a file, quoted", '{"schema": {"$ref": "./pet.json#/Pet"}}'],
    ["a value on the next line", "schema:\n  $ref:\n    '#/x'\n"],
    ["a file in a block scalar", "schema:\n  $ref: >-\n    pet.yaml#/Pet\n"],
    ["a block scalar with its indentation given", "schema:\n  $ref: >2-\n     #/x\n"],
    ["an alias", "schema:\n  $ref: *target\n"],
    ["a discriminator mapping", "discriminator:\n  mapping:\n    cat: Cat.yaml\n"],
    ["an escaped key", '{"schema": {"\\u0024ref": "pet.json"}}'],
    ["an escaped mapping key", '{"discriminator": {"m\\u0061pping": {"cat": "Cat.json"}}}'],
    ["a key joined across an escaped line break", '? "$r\\\n  ef"\n: other.yaml\n'],
    ["a flow key joined across an escaped line break", 'a: {"$r\\\r\n ef": other.yaml}\n'],
    ["a quoted mapping key", '{"discriminator": {"mapping" : {"cat": "Cat.json"}}}'],
    ["a mapping key on its own line", "discriminator:\n  ? mapping\n  : {cat: Cat.yaml}\n"],
    ["an alias as the mapping key", "k: &k mapping\ndiscriminator:\n  *k : {cat: Cat.yaml}\n"],
  ])("walks a text with %s", (_label, text) => {
    expect(mayReferenceOtherFiles(text)).toBe(true);
  });

  it("walks a key joined across an escaped line break, which reads as `$ref`", () => {
    const text = 'schema:\n  ? "$r\\\n    ef"\n  : other.yaml\n';
    expect(parseSource(text, false)).toEqual({ schema: { $ref: "other.yaml" } });
    expect(mayReferenceOtherFiles(text)).toBe(true);
  });

  it("never clears a document that has a reference to another file (property)", () => {
    fc.assert(
      fc.property(referenceTree, fc.boolean(), (node, asJson) => {
        const document = {
          openapi: "3.1.0",
          info: { title: "A", version: "1" },
          paths: {
            "/x": {
              get: {
                responses: {
                  "200": { description: "ok", content: { "application/json": { schema: node } } },
                },
              },
            },
          },
        };
        const text = asJson ? JSON.stringify(document, null, 2) : toYamlLike(document);
        const parsed = parseSource(text, asJson);
        if (findExternalRefs(parsed).length > 0) expect(mayReferenceOtherFiles(text)).toBe(true);
      }),
    );
  });
});

/** YAML as people write it: block mappings, plain or quoted scalars. */
function toYamlLike(value: unknown, indent = ""): string {
  if (typeof value !== "object" || value === null) return `${JSON.stringify(value)}\n`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}\n";
  return `\n${entries.map(([key, child]) => `${indent}${JSON.stringify(key)}: ${toYamlLike(child, `${indent}  `)}`).join("")}`;
}
