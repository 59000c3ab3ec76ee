import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec, findExternalRefs } from "../../src/bundling/index.ts";
import { diskLoader, firstDifference, memoryLoader } from "./same-graph.ts";
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
