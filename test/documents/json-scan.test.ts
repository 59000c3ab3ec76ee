import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanJsonObject } from "../../src/documents/json-scan.ts";

/** What the scan must agree with: the text is strict JSON whose top level is an object. */
function parsesToObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const topLevelOf = (text: string) =>
  Object.fromEntries(
    [...(scanJsonObject(text) ?? new Map()).entries()].map(([key, range]) => [
      key,
      JSON.parse(text.slice(range.start, range.end)),
    ]),
  );

describe("scanJsonObject", () => {
  it("accepts what JSON.parse reads as an object, and finds each top-level value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (object, pretty) => {
        const text = JSON.stringify(object, null, pretty ? 2 : undefined);
        expect(scanJsonObject(text)).toBeDefined();
        expect(topLevelOf(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JSON.parse on damaged texts", () => {
    const damaged = fc
      .tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.nat(), fc.nat(), fc.string({ maxLength: 3 }))
      .map(([object, at, cut, insert]) => {
        const text = JSON.stringify(object, null, 1);
        const start = at % (text.length + 1);
        return text.slice(0, start) + insert + text.slice(start + (cut % 3));
      });
    fc.assert(
      fc.property(damaged, (text) => {
        expect(scanJsonObject(text) !== undefined).toBe(parsesToObject(text));
      }),
      { numRuns: 3000 },
    );
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
    ['{"a" 1}', "a missing colon"],
    ["[1, 2]", "an array at the top"],
    ['"text"', "a string at the top"],
    ['// comment\n{"a": 1}', "a comment"],
  ])("refuses %s (%s)", (text) => {
    expect(parsesToObject(text)).toBe(false);
    expect(scanJsonObject(text)).toBeUndefined();
  });

  it("keeps a repeated key's last value, as JSON.parse does, and reads from an offset", () => {
    const text = '\uFEFF { "info": {"title": "A"}, "openapi": "3.1.0", "info": {"title": "B"} }\n';
    expect(topLevelOf(text.slice(1))).toEqual({ info: { title: "B" }, openapi: "3.1.0" });
    const range = scanJsonObject(text, 1)?.get("openapi");
    expect(range && text.slice(range.start, range.end)).toBe('"3.1.0"');
  });

  it("takes deep nesting without running out of stack", () => {
    const depth = 200_000;
    const text = `{"a": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
    expect(scanJsonObject(text)?.get("a")).toEqual({ start: 6, end: 6 + 2 * depth });
  });
});
