import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fileReferenceRule, findExternalRefs } from "../../src/core/bundling/index.ts";
import { scanJsonObject } from "../../src/core/documents/json-scan.ts";
import { referenceTree } from "../support/reference-tree.ts";

const scan = (text: string, from = 0) => scanJsonObject(Buffer.from(text), from, fileReferenceRule);

/** What the scan must agree with: the text is strict JSON whose top level is an object. */
function parsesToObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const topLevelOf = (text: string) => {
  const bytes = Buffer.from(text);
  return Object.fromEntries(
    [...(scanJsonObject(bytes, 0, fileReferenceRule)?.fields ?? new Map()).entries()].map(([key, range]) => [
      key,
      JSON.parse(bytes.subarray(range.start, range.end).toString("utf8")),
    ]),
  );
};

describe("scanJsonObject", () => {
  it("accepts what JSON.parse reads as an object, and finds each top-level value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (object, pretty) => {
        const text = JSON.stringify(object, null, pretty ? 2 : undefined);
        expect(scan(text)).toBeDefined();
        expect(topLevelOf(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JSON.parse on damaged texts, multi-byte characters included", () => {
    const damaged = fc
      .tuple(
        fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue()),
        fc.nat(),
        fc.nat(),
        fc.string({ maxLength: 3 }),
      )
      .map(([object, at, cut, insert]) => {
        const text = JSON.stringify(object, null, 1);
        const start = at % (text.length + 1);
        return text.slice(0, start) + insert + text.slice(start + (cut % 3));
      });
    fc.assert(
      fc.property(damaged, (text) => {
        expect(scan(text) !== undefined).toBe(parsesToObject(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with decoding then JSON.parse on invalid UTF-8", () => {
    const inString = Buffer.concat([Buffer.from('{"a": "x'), Buffer.from([0xff, 0xc3]), Buffer.from('y"}')]);
    const outside = Buffer.concat([Buffer.from('{"a": 1'), Buffer.from([0xff]), Buffer.from("}")]);
    expect(scanJsonObject(inString, 0, fileReferenceRule)).toBeDefined();
    expect(parsesToObject(inString.toString("utf8"))).toBe(true);
    expect(scanJsonObject(outside, 0, fileReferenceRule)).toBeUndefined();
    expect(parsesToObject(outside.toString("utf8"))).toBe(false);
  });

  it.each([
    ['{"a": 1,}', "a trailing comma"],
    ['{"a": [1, 2,]}', "a trailing comma in an array"],
    ["{'a': 1}", "single quotes"],
    ['{"a": 01}', "a leading zero"],
    ['{"a": 1.}', "a dot without digits"],
    ['{"a": .5}', "a number without its integer part"],
    ['{"a": +1}', "a plus sign"],
    ['{"a": "tab\there"}', "a raw control character in a string"],
    ['{"a": "\\x41"}', "an escape JSON does not have"],
    ['{"a": "\\u12G4"}', "a bad unicode escape"],
    ['{"a": NaN}', "NaN"],
    ['{"a": tru}', "a cut word"],
    ['{"a": 1} {"b": 2}', "two documents"],
    ['{"a": 1', "an unclosed object"],
    ['{"a": "open', "an unclosed string"],
    ['{"a" 1}', "a missing colon"],
    ["[1, 2]", "an array at the top"],
    ['"text"', "a string at the top"],
    ['// comment\n{"a": 1}', "a comment"],
  ])("refuses %s (%s)", (text) => {
    expect(parsesToObject(text)).toBe(false);
    expect(scan(text)).toBeUndefined();
  });

  it("keeps a repeated key's last value, as JSON.parse does, and reads from an offset", () => {
    const text = '\uFEFF { "info": {"title": "A"}, "openapi": "3.1.0", "info": {"title": "B"} }\n';
    const bytes = Buffer.from(text);
    expect(topLevelOf(text.slice(1))).toEqual({ info: { title: "B" }, openapi: "3.1.0" });
    const range = scanJsonObject(bytes, 3, fileReferenceRule)?.fields.get("openapi");
    expect(range && bytes.subarray(range.start, range.end).toString()).toBe('"3.1.0"');
  });

  it("takes deep nesting without running out of stack", () => {
    const depth = 200_000;
    const text = `{"a": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
    expect(scan(text)?.fields.get("a")).toEqual({ start: 6, end: 6 + 2 * depth });
  });
});

describe("scanJsonObject: what may reference another file", () => {
  it.each([
    ['{"a": {"$ref": "#/b"}, "b": {"description": "the mapping: $ref to pet.json"}}', false],
    ['{"a": {"$ref": "pet.json"}}', true],
    ['{"a": {"$ref": 42}}', false],
    ['{"properties": {"$ref": {"type": "string"}}}', false],
    ['{"d": {"mapping": {"cat": "#/c", "dog": "Dog"}}}', false],
    ['{"d": {"mapping": {"cat": "Cat.json"}}}', true],
    ['{"d": {"mapping": {"cat": {"x": "Cat.json"}}, "e": "Cat.json"}}', false],
    ['{"a": {"\\u0024ref": "#/b"}}', false],
    ['{"a": {"\\u0024ref": "b.json"}}', true],
    ['{"a": {"$ref": "\\u0023/b"}}', false],
    ['{"d": {"m\\u0061pping": {"cat": "Cat.json"}}}', true],
    ['{"a\\/b": {"$ref": "#/x"}}', false],
  ])("%s → %s", (text, expected) => {
    expect(scan(text)?.mayReferenceOtherFiles).toBe(expected);
  });

  it("never clears a document that has a reference to another file (property)", () => {
    fc.assert(
      fc.property(referenceTree, (node) => {
        const document = {
          openapi: "3.1.0",
          info: { title: "A", version: "1" },
          components: { schemas: { Node: node } },
        };
        const text = JSON.stringify(document);
        if (findExternalRefs(document).length > 0) expect(scan(text)?.mayReferenceOtherFiles).toBe(true);
      }),
    );
  });
});
