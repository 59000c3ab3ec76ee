/**
 * No import circles (issue 31): no file of src/ imports itself through others, and no folder of src/core
 * reaches back to a folder that imports it. Type-only imports count: they tie the files together as much.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, folderGraph, importGraph } from "../../scripts/import-graph.ts";

const ROOT = join(import.meta.dirname, "../..");

describe("the import graph of src/", () => {
  const graph = importGraph(ROOT);

  it("reads the tree's imports, type-only and dynamic ones included", () => {
    expect(graph.get("src/core/run/run.ts")).toContain("src/core/ports.ts");
    expect(graph.get("src/index.ts")).toContain("src/core/change-review/compare-worker.ts");
  });

  it("has no circle between files", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("has no circle between the folders of src/core", () => {
    expect(circles(folderGraph(graph))).toEqual([]);
  });
});

describe("the circle finder", () => {
  it("finds a circle between files and one between folders", () => {
    const graph = new Map([
      ["src/core/a/one.ts", ["src/core/b/two.ts"]],
      ["src/core/b/two.ts", ["src/core/b/three.ts"]],
      ["src/core/b/three.ts", ["src/core/a/four.ts"]],
      ["src/core/a/four.ts", []],
      ["src/core/c/five.ts", ["src/core/c/six.ts"]],
      ["src/core/c/six.ts", ["src/core/c/five.ts"]],
    ]);
    expect(circles(graph)).toEqual([["src/core/c/five.ts", "src/core/c/six.ts"]]);
    expect(circles(folderGraph(graph))).toEqual([["core/a", "core/b"]]);
  });
});
