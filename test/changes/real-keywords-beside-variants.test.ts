/**
 * On a real spec (GitBook's own API, from `@gitbook/api` in node_modules; read at test time, never
 * committed): its 12 schemas with `type: object` (and properties) beside a `oneOf`/`anyOf`, rewritten
 * with those keywords moved into every variant, say nothing at all. Before issue 27 the comparison read
 * the keywords as the container's own and reported properties every variant still has as removed.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { compareApis } from "../../src/core/changes/index.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const KEYWORDS = ["type", "properties", "required"] as const;

/** The document with every schema's `type`, `properties` and `required` beside a oneOf/anyOf moved into its variants. */
function keywordsIntoVariants(node: unknown, moved: { count: number }): unknown {
  if (Array.isArray(node)) return node.map((item) => keywordsIntoVariants(item, moved));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = keywordsIntoVariants(value, moved);
  const keyword = Array.isArray(out.oneOf) ? "oneOf" : Array.isArray(out.anyOf) ? "anyOf" : undefined;
  if (keyword === undefined || !KEYWORDS.some((key) => key in out)) return out;
  const beside: Json = {};
  for (const key of KEYWORDS)
    if (key in out) {
      beside[key] = out[key];
      delete out[key];
    }
  out[keyword] = (out[keyword] as unknown[]).map((variant) => ({ allOf: [beside, variant] }));
  moved.count++;
  return out;
}

describe("compareApis on GitBook's API: keywords beside oneOf/anyOf moved into the variants", () => {
  it("finds no change", () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve("@gitbook/api/spec/openapi.json");
    const before = JSON.parse(readFileSync(file, "utf8")) as Json;
    const moved = { count: 0 };
    const after = keywordsIntoVariants(structuredClone(before), moved) as Json;
    expect(moved.count).toBeGreaterThanOrEqual(10);
    const result = compareApis(before, after);
    expect(result.breaking.map((change) => `${change.method} ${change.path}: ${change.message}`)).toEqual([]);
    expect(result.other.map((change) => `${change.method} ${change.path}: ${change.message}`)).toEqual([]);
  });
});
