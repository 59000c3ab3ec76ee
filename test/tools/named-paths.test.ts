/**
 * No stale pointers (issue 31): every repository path a file of src/, harness/, bench/ or scripts/ names
 * in its comments or text (`src/core/run/run.ts`, `docs/design/ownership.md`, a file beside it) exists.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { namedPaths, stalePointers } from "../../scripts/named-paths.ts";

const ROOT = join(import.meta.dirname, "../..");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the paths the sources name", () => {
  it("all exist", () => {
    expect(stalePointers(ROOT)).toEqual([]);
  });

  it("are read from comments, backticks and folders beside the file, not from import lines", () => {
    const text = [
      "// Why: docs/design/ownership.md. See `src/core/ports.ts` and (./wait.ts).",
      'import { x } from "./gone.ts";',
    ].join("\n");
    expect(namedPaths(text, "src/core/publish")).toEqual([
      "docs/design/ownership.md",
      "src/core/ports.ts",
      "src/core/publish/wait.ts",
    ]);
  });

  it("names a file that is gone", () => {
    const root = mkdtempSync(join(tmpdir(), "named-paths-"));
    made.push(root);
    mkdirSync(join(root, "src/core"), { recursive: true });
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs/kept.md"), "");
    writeFileSync(
      join(root, "src/core/a.ts"),
      "/** See docs/kept.md, docs/gone.md, ./b.ts and another project's src/Runner/Command.cs. */\n",
    );
    expect(stalePointers(root, ["src"])).toEqual([
      "src/core/a.ts: docs/gone.md",
      "src/core/a.ts: src/core/b.ts",
    ]);
  });
});
