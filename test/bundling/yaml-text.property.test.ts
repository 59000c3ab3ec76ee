import fc from "fast-check";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { toYaml } from "../../src/core/bundling/yaml-text.ts";

/** Strings that trip YAML writers: words and numbers YAML reads as other types, indicators, blank edges,
 * line breaks of every kind, tabs, unprintable and astral characters. */
const trickyString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "N",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "-",
    "- a",
    "? a",
    ": a",
    "a: b",
    "a #b",
    "#a",
    "&a",
    "*a",
    "!a",
    "|",
    ">",
    "%a",
    "@a",
    "`a",
    "'a'",
    '"a"',
    "{a}",
    "[a]",
    "a,b",
    "<<",
    "=",
    "0",
    "007",
    "0o17",
    "0x1F",
    "1e3",
    "1_000",
    "12:30:45",
    "2001-12-14",
    ".inf",
    "-.INF",
    ".NaN",
    "3.14",
    "+1",
    "---",
    "...",
    "/pets/{petId}",
    "application/json",
    "$ref",
    "x-codeSamples",
    "line\n",
    "line\n\n",
    "line\n\n\n",
    "a\nb",
    "a\n b\n  c\n",
    "a\n\n\nb",
    "a\n   \nb",
    "a \nb ",
    "a\n\tb",
    "a\r\nb",
    "a\rb",
    "\nleading break",
    " leading space\nsecond",
    "\tleading tab\nsecond",
    "a\u0085b",
    "a\u2028b\nc",
    "\ufeffbom",
    "del\u007f",
    "bell\u0007",
    "emoji 😀\nnext",
    "lone \ud800 surrogate",
    "# heading\n\nText with `code` and **bold**: see below.\n",
  ),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc
    .array(fc.constantFrom("a", " ", "\n", "\t", ":", "#", "-", "'", '"', "\\", "é", "\r"), { maxLength: 12 })
    .map((characters) => characters.join("")),
);

const data = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    trickyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(trickyString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** What JSON can hold of `value` (-0 becomes 0). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe("toYaml", () => {
  it("writes YAML that js-yaml and yaml both read back as the same data", () => {
    fc.assert(
      fc.property(data, (value) => {
        const text = toYaml(value);
        expect(load(text)).toEqual(asJson(value));
        expect(parse(text, { uniqueKeys: false })).toEqual(asJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes descriptions as literal blocks, paths and media types plain", () => {
    expect(
      toYaml({
        paths: { "/pets/{petId}": { get: { description: "Line one.\nLine two.\n" } } },
        content: { "application/json": { example: ["yes", 200, "200"] } },
      }),
    ).toBe(
      [
        "paths:",
        "  /pets/{petId}:",
        "    get:",
        "      description: |",
        "        Line one.",
        "        Line two.",
        "content:",
        "  application/json:",
        "    example:",
        '      - "yes"',
        "      - 200",
        '      - "200"',
        "",
      ].join("\n"),
    );
  });
});
