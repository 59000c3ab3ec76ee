import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec, findExternalRefs } from "../../src/core/bundling/index.ts";
import { diskLoader, firstDifference, mayHoldNewComponents, memoryLoader } from "./same-graph.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

const keys = ["a", "b", "c"] as const;

/**
 * Random specs of up to five files with keys a, b, c. A key holds either a schema (whose `back` property
 * may refer to any file: cycles across files) or a `$ref` to a later key of the same file or to a later
 * file, whole or by fragment — so fragments often point at nodes that are themselves references.
 */
const specFiles = fc.integer({ min: 2, max: 5 }).chain((count) =>
  fc.tuple(
    ...Array.from({ length: count }, (_, file) =>
      fc.tuple(
        ...keys.map((_, key) =>
          fc
            .oneof(
              fc.record({
                kind: fc.constant("schema" as const),
                back: fc.option(fc.nat(count - 1), { nil: undefined }),
              }),
              fc.record({
                kind: fc.constant("ref" as const),
                file: fc.integer({ min: file, max: count - 1 }),
                key: fc.option(fc.integer({ min: 0, max: keys.length - 1 }), { nil: undefined }),
              }),
            )
            .map((entry) => ({ entry, file, key })),
        ),
      ),
    ),
  ),
);

function writeSpec(tree: TempTree, files: ReturnType<typeof specFiles.generate>["value"]): void {
  const texts: Record<string, string> = {};
  for (const [index, entries] of files.entries()) {
    const document: Record<string, unknown> = {};
    for (const { entry, file, key } of entries) {
      const name = keys[key] ?? "a";
      if (entry.kind === "schema") {
        document[name] = {
          type: "object",
          title: `f${file}.${name}`,
          ...(entry.back === undefined ? {} : { properties: { back: { $ref: `./f${entry.back}.yaml` } } }),
        };
      } else if (entry.file === file) {
        const later = keys.slice(key + 1);
        document[name] =
          later.length === 0 ? { const: name } : { $ref: `#/${later[(entry.key ?? 0) % later.length]}` };
      } else {
        const fragment = entry.key === undefined ? "" : `#/${keys[entry.key]}`;
        document[name] = { $ref: `sub/../f${entry.file}.yaml${fragment}` };
      }
    }
    texts[`f${index}.yaml`] = JSON.stringify(document);
  }
  tree.write(texts);
}

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

describe("bundleSpec on random multi-file specs", () => {
  it("always dereferences to the same document as the original files", async () => {
    await fc.assert(
      fc.asyncProperty(specFiles, async (files) => {
        tree?.remove();
        tree = tempTree();
        writeSpec(tree, files);
        const root = tree.path("f0.yaml");
        const result = await bundleSpec(root, { workspace: tree.root });
        const document = parse(result.text);
        const rootUrl = pathToFileURL(root).href;
        const disk = diskLoader();

        expect(findExternalRefs(document)).toEqual([]);
        expect(
          firstDifference(
            { url: rootUrl, value: disk(rootUrl) },
            disk,
            { url: "file:///b", value: document },
            memoryLoader("file:///b", document),
          ),
        ).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * Random OpenAPI 3.1 specs of a root and up to five schema files, in folders whose names collide. A file
 * holds one schema or several (`#/a`, `#/b`); schemas refer to each other's files (cycles across files),
 * whole or by fragment, some through discriminator mappings; the root's `components/schemas` has its own
 * schemas (named like the files, so names clash) and entries that only refer to a file.
 */
const schemaRef = (count: number) =>
  fc.record({
    file: fc.integer({ min: 1, max: count }),
    key: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
  });
const openApiSpec = fc.integer({ min: 1, max: 5 }).chain((count) =>
  fc.record({
    files: fc.array(
      fc.record({
        folder: fc.constantFrom("v1", "v2", "v1/deep"),
        several: fc.boolean(),
        refs: fc.array(schemaRef(count), { maxLength: 3 }),
        mapping: fc.option(schemaRef(count), { nil: undefined }),
      }),
      { minLength: count, maxLength: count },
    ),
    rootRefs: fc.array(schemaRef(count), { minLength: 1, maxLength: 3 }),
    rootNames: fc.array(
      fc.record({
        name: fc.constantFrom("f1", "f2", "a", "b", "Own"),
        ref: fc.option(schemaRef(count), { nil: undefined }),
      }),
      {
        maxLength: 3,
      },
    ),
  }),
);

type OpenApiSpec = ReturnType<typeof openApiSpec.generate>["value"];

function writeOpenApiSpec(tree: TempTree, spec: OpenApiSpec): void {
  const path = (file: number) => `${spec.files[file - 1]?.folder}/f${file}.yaml`;
  const refTo = (from: string, { file, key }: { file: number; key: "a" | "b" | undefined }) => {
    const several = spec.files[file - 1]?.several ?? false;
    const fragment = several ? `#/${key ?? "a"}` : "";
    const up = from.split("/").length - 1;
    return `${"../".repeat(up)}${path(file)}${fragment}`;
  };
  const texts: Record<string, string> = {};
  spec.files.forEach((file, index) => {
    const at = path(index + 1);
    const schema = (title: string) => ({
      type: "object",
      title,
      properties: Object.fromEntries(file.refs.map((ref, n) => [`p${n}`, { $ref: refTo(at, ref) }])),
      ...(file.mapping
        ? { discriminator: { propertyName: "kind", mapping: { other: refTo(at, file.mapping) } } }
        : {}),
    });
    texts[at] = JSON.stringify(file.several ? { a: schema(`${at}#/a`), b: schema(`${at}#/b`) } : schema(at));
  });
  texts["openapi.yaml"] = JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Random", version: "1" },
    paths: {
      "/x": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: { oneOf: spec.rootRefs.map((ref) => ({ $ref: refTo("openapi.yaml", ref) })) },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: Object.fromEntries(
        spec.rootNames.map(({ name, ref }) => [
          name,
          ref ? { $ref: refTo("openapi.yaml", ref) } : { const: name },
        ]),
      ),
    },
  });
  tree.write(texts);
}

describe("bundleSpec on random OpenAPI specs with named components", () => {
  it("always dereferences to the same API, adding only components, every mapping pointing into them", async () => {
    await fc.assert(
      fc.asyncProperty(openApiSpec, async (spec) => {
        tree?.remove();
        tree = tempTree();
        writeOpenApiSpec(tree, spec);
        const root = tree.path("openapi.yaml");
        const result = await bundleSpec(root, { workspace: tree.root });
        const document = parse(result.text);
        const rootUrl = pathToFileURL(root).href;
        const disk = diskLoader();

        expect(findExternalRefs(document)).toEqual([]);
        expect(Object.keys(document)).toEqual(["openapi", "info", "paths", "components"]);
        expect(
          firstDifference(
            { url: rootUrl, value: disk(rootUrl) },
            disk,
            { url: "file:///b", value: document },
            memoryLoader("file:///b", document),
            mayHoldNewComponents,
          ),
        ).toBeNull();
        for (const name of spec.rootNames.map((entry) => entry.name)) {
          expect(document.components.schemas).toHaveProperty([name]);
        }
        expect(result.text).not.toMatch(/\$ref: .*\.yaml|other: .*\.yaml/);
      }),
      { numRuns: 150 },
    );
  });
});
