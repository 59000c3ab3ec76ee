/**
 * Properties of the structural check on documents broken at random: whatever value lands wherever in a
 * valid document, every issue names a node the document has, says something readable, is said once,
 * and is located inside the file.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { MemoryLogger } from "../../src/core/logger.ts";
import { loadStructuralCheck, validateSpecDocument } from "../../src/core/validation/index.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

// The check against the official schemas loads on first use (as prepareFile loads it).
beforeAll(loadStructuralCheck);

const BASES: Record<string, Record<string, unknown>> = {
  "2.0": {
    swagger: "2.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, type: "string" }],
          responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } } },
        },
      },
    },
    definitions: { Pet: { type: "object", properties: { name: { type: "string" } } } },
  },
  "3.0.3": {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
          },
        },
      },
    },
    components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
  },
  "3.1.0": {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": {
        post: {
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "201": { description: "created" } },
        },
      },
    },
    webhooks: {},
  },
};

/** Every key path of the document's objects and lists. */
function keyPaths(node: unknown, prefix: string[] = []): string[][] {
  if (node === null || typeof node !== "object") return [prefix];
  return [prefix, ...Object.entries(node).flatMap(([key, value]) => keyPaths(value, [...prefix, key]))];
}

function setAt(document: unknown, path: readonly string[], key: string, value: unknown): unknown {
  const copy = structuredClone(document) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const step of path) node = node[step] as Record<string, unknown>;
  node[key] = value;
  return copy;
}

function valueAt(document: unknown, path: readonly string[]): unknown {
  let node = document;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

const mutation = fc
  .constantFrom(...Object.keys(BASES))
  .chain((version) => {
    const base = BASES[version] as Record<string, unknown>;
    const containers = keyPaths(base).filter((path) => {
      const value = valueAt(base, path);
      // Mappings only: a key set on a list would leave holes, which no parser gives.
      return value !== null && typeof value === "object" && !Array.isArray(value);
    });
    return fc.record({
      version: fc.constant(version),
      at: fc.constantFrom(...containers),
      key: fc.oneof(
        fc.constantFrom("responses", "type", "$ref", "in", "required", "description", "paths", "200", "name"),
        fc.string({ maxLength: 6 }),
      ),
      value: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom("not an object", 42, [], {}, null, { $ref: 7 }),
      ),
    });
  })
  .map(({ version, at, key, value }) => ({
    version,
    document: setAt(BASES[version], at, key, value),
  }));

describe("structural issues on documents broken at random", () => {
  it("each names a node the document has, once, in words", () => {
    fc.assert(
      fc.property(mutation, ({ version, document }) => {
        const issues = structuralIssues(document, version) ?? [];
        const said = new Set<string>();
        for (const issue of issues) {
          expect(valueAt(document, issue.keyPath)).not.toBeUndefined();
          expect(issue.message).toMatch(/^(`[^`]+`|the document) .+\.$/);
          expect(issue.message).not.toMatch(/undefined|\[object Object\]/);
          const key = `${issue.keyPath.join("/")} ${issue.message}`;
          expect(said.has(key)).toBe(false);
          said.add(key);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("locates each problem inside the YAML file that holds it", () => {
    fc.assert(
      fc.property(mutation, ({ document }) => {
        const text = stringify(document);
        const lines = text.split("\n").length;
        const problems = validateSpecDocument(loadedSpec(text, "yaml", "api/spec.yaml"), new MemoryLogger(), {
          strict: true,
        });
        for (const problem of problems) {
          expect(problem.file).toBe("api/spec.yaml");
          if (problem.line === undefined) continue;
          expect(problem.line).toBeGreaterThanOrEqual(1);
          expect(problem.line).toBeLessThanOrEqual(lines);
        }
      }),
      { numRuns: 100 },
    );
  });
});
