/**
 * `locateKeyPaths` against the parse that keeps positions (`keyPathLocator`, yaml's parseDocument): on
 * real specs (test/fixtures/real-specs: Stripe's and OpenAI's YAML, Kubernetes' JSON) the key paths
 * down to depth 6, all located at once, and some that do not exist, are placed on the lines the parse
 * gives for a sample of them; YAML the line reading
 * cannot be sure of falls back to the parse.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { markBlockYamlKeys } from "../../src/core/documents/block-yaml.ts";
import { keyPathLocator } from "../../src/core/documents/locate.ts";
import { locateKeyPaths } from "../../src/core/documents/locate-many.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";

const real = (name: string) =>
  brotliDecompressSync(
    readFileSync(fileURLToPath(new URL(`../fixtures/real-specs/${name}`, import.meta.url))),
  ).toString("utf8");

function keyPaths(document: unknown, maxDepth: number): string[][] {
  const out: string[][] = [];
  const walk = (node: unknown, at: string[]) => {
    if (at.length >= maxDepth || typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      out.push([...at, key]);
      walk(value, [...at, key]);
    }
  };
  walk(document, []);
  return [...out, ["paths", "/nowhere", "get"], ["components", "schemas", "Nothing", "properties"]];
}

const lines = (found: { position: { line: number } }[]) => found.map((f) => f.position.line);

describe("locateKeyPaths", () => {
  it.each([
    ["stripe-spec3.yaml.br", "yaml"],
    ["openai-openapi.yaml.br", "yaml"],
    ["kubernetes-swagger.json.br", "json"],
  ] as const)("places every key of %s where the positions parse does", (name, format) => {
    const text = real(name);
    // All are located at once; the reference, a path at a time, is asked a sample of them.
    const all = keyPaths(parseSource(text, format === "json"), 6);
    const every = format === "json" ? 400 : 20;
    const sample = new Set(all.filter((_, index) => index % every === 0 || index >= all.length - 2));
    const found = locateKeyPaths(text, format, all).filter((_, index) => sample.has(all[index] as string[]));
    const slow = keyPathLocator(text, format);
    expect(lines(found)).toEqual(lines([...sample].map((p) => slow(p))));
  });

  it("gives up on YAML it cannot read line by line, and the parse places it", () => {
    const text = "a:\n  b: {c: 1,\n    d: 2}\nx:\n  y: 1\n";
    expect(
      markBlockYamlKeys(text, {
        children: new Map([
          ["a", { children: new Map([["b", { children: new Map([["d", { children: new Map() }]]) }]]) }],
        ]),
      }),
    ).toBe(false);
    expect(
      lines(
        locateKeyPaths(text, "yaml", [
          ["a", "b", "d"],
          ["x", "y"],
        ]),
      ),
    ).toEqual([3, 5]);
  });

  it("steps into lists, block scalars and quoted keys", () => {
    const text = [
      "paths:",
      '  "/a:b":',
      "    get:",
      "      description: |",
      "        key: not a key",
      "      parameters:",
      "      - name: q",
      "        in: query",
      "      - $ref: x.yaml",
      "  '/c''d':",
      "    post: {}",
    ].join("\n");
    const found = locateKeyPaths(text, "yaml", [
      ["paths", "/a:b", "get", "parameters", "1"],
      ["paths", "/a:b", "get", "parameters", "0", "in"],
      ["paths", "/c'd", "post"],
      ["paths", "/a:b", "get", "key"],
    ]);
    expect(lines(found)).toEqual([9, 8, 11, 3]);
  });
});
