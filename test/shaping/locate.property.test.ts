/**
 * The JSON side of the extension checks' locator (src/core/shaping/extensions/locate.ts) scans the text
 * along a path instead of parsing it. Property: for any JSON document, written compactly or indented, and
 * any path to any of its values, it finds the same place as the `yaml` library's parser with positions
 * (JSON is YAML): the key of a mapping entry, the first character of a list item.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { pathLocator } from "../../src/core/shaping/extensions/locate.ts";

type Path = (string | number)[];

/** Keys with what a scanner can trip on: quotes, backslashes, braces, colons, unicode, escapes. */
const key = fc.oneof(
  fc.constantFrom(
    "a",
    "x-page-icon",
    'quo"te',
    "back\\slash",
    "{brace}",
    "[list]",
    "co:lon",
    "ünï",
    "/pets/{id}",
    "",
  ),
  fc.string({ maxLength: 6 }),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    tie("list"),
    tie("map"),
  ),
  list: fc.array(tie("value"), { maxLength: 4 }),
  map: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
})).map;

/** Every path to a value of `value` (not the root's). */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([part, child]) => [[...prefix, part], ...pathsOf(child, [...prefix, part])]);
}

/** Where `yaml` puts the path's last key (or list item). */
function oracle(text: string, path: Path): { line: number; column: number } {
  const lineCounter = new LineCounter();
  let node: unknown = parseDocument(text, { lineCounter, uniqueKeys: false }).contents;
  let offset = 0;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
      if (!pair) throw new Error(`no key ${String(part)}`);
      offset = (pair.key as Node).range?.[0] as number;
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[part as number];
      offset = (node as Node).range?.[0] as number;
    }
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

describe("the JSON locator of the extension checks", () => {
  it("finds every key and list item where a parser with positions finds it", () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 2, "\t"), (document, indent) => {
        const text = JSON.stringify(document, null, indent);
        const locate = pathLocator(text, "json");
        for (const path of pathsOf(document)) expect(locate(path)).toEqual(oracle(text, path));
      }),
      { numRuns: 300 },
    );
  });

  it("stops at the deepest part of a path that exists", () => {
    const text = '{\n  "tags": [\n    {"name": "a"}\n  ]\n}';
    const locate = pathLocator(text, "json");
    expect(locate(["tags", 0, "x-parent"])).toEqual({ line: 3, column: 5 });
    expect(locate(["tags", 5])).toEqual({ line: 2, column: 3 });
    expect(locate(["nothing"])).toEqual({ line: 1, column: 1 });
  });
});
