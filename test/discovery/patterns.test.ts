/**
 * The `files` input's lines as discovery matches them (src/core/discovery/patterns.ts): `@actions/glob`'s
 * semantics — lines in order, a folder covering its files, dot files — without following linked
 * folders and without printing anything.
 */

import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { matchPatternFiles, readPatternLines } from "../../src/core/discovery/patterns.ts";
import { DiscoveryError } from "../../src/core/discovery/types.ts";
import { silentLogger } from "../../src/core/logger.ts";
import { makeTree, OPENAPI_YAML } from "./helpers.ts";

const cleanup: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanup.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await makeTree(files);
  cleanup.push(root);
  return root;
}

async function match(root: string, ...patterns: string[]): Promise<string[]> {
  const files = await matchPatternFiles(root, readPatternLines(patterns));
  return files.map((file) => path.relative(root, file).split(path.sep).join("/")).sort();
}

const FILES = {
  "specs/a.yaml": OPENAPI_YAML,
  "specs/drafts/b.yaml": OPENAPI_YAML,
  "specs/drafts/c.yaml": OPENAPI_YAML,
  "specs/.hidden/d.yaml": OPENAPI_YAML,
  ".e.yaml": OPENAPI_YAML,
  "other/f.json": "{}",
};

describe("matchPatternFiles", () => {
  it("applies lines in order: a later `!` line removes what earlier lines matched, a later line adds back", async () => {
    const root = await tree(FILES);
    expect(await match(root, "specs/**\n!specs/drafts/**")).toEqual(["specs/.hidden/d.yaml", "specs/a.yaml"]);
    expect(await match(root, "specs/**\n!specs/drafts/**\nspecs/drafts/c.yaml")).toEqual([
      "specs/.hidden/d.yaml",
      "specs/a.yaml",
      "specs/drafts/c.yaml",
    ]);
    // An exclusion before the line that matches the file excludes nothing.
    expect(await match(root, "!specs/drafts/**\nspecs/**")).toHaveLength(4);
  });

  it("takes a folder's pattern to mean every file under it, and a `!` folder to remove them", async () => {
    const root = await tree(FILES);
    expect(await match(root, "specs/drafts")).toEqual(["specs/drafts/b.yaml", "specs/drafts/c.yaml"]);
    expect(await match(root, "specs/drafts/")).toEqual(["specs/drafts/b.yaml", "specs/drafts/c.yaml"]);
    expect(await match(root, "spec?/*\n!specs/drafts")).toEqual(["specs/.hidden/d.yaml", "specs/a.yaml"]);
    expect(await match(root, "specs\n!specs/drafts/")).toEqual(["specs/.hidden/d.yaml", "specs/a.yaml"]);
  });

  it("matches dot files and folders with `*` and `**`, and reads `*`, `?`, `[…]` as @actions/glob does", async () => {
    const root = await tree({ ...FILES, "x(a|b).yaml": "", "a{1,2}.yaml": "", "a.yaml": "", "!n.yaml": "" });
    expect(await match(root, "*.yaml")).toEqual([
      "!n.yaml",
      ".e.yaml",
      "a.yaml",
      "a{1,2}.yaml",
      "x(a|b).yaml",
    ]);
    expect(await match(root, "**/d.yaml")).toEqual(["specs/.hidden/d.yaml"]);
    // No braces, no extglobs, no regex groups; `!!` is a file whose name starts with `!`.
    expect(await match(root, "a{1,2}.yaml")).toEqual(["a{1,2}.yaml"]);
    expect(await match(root, "x(a|b).yaml")).toEqual(["x(a|b).yaml"]);
    expect(await match(root, "*.yaml\n!!n.yaml")).toEqual([
      ".e.yaml",
      "a.yaml",
      "a{1,2}.yaml",
      "x(a|b).yaml",
    ]);
    expect(await match(root, "[.a]*.yaml\n![a]?1*")).toEqual([".e.yaml", "a.yaml"]);
  });

  it("never walks a linked folder, lists linked files and leaves broken links out", async () => {
    const root = await tree({ "specs/a.yaml": OPENAPI_YAML });
    const outside = await tree({ "far/b.yaml": OPENAPI_YAML });
    await fs.symlink(outside, path.join(root, "out"));
    await fs.symlink("/", path.join(root, "slash"));
    await fs.symlink("specs", path.join(root, "specs-link"));
    await fs.symlink("specs/a.yaml", path.join(root, "link.yaml"));
    await fs.symlink("missing.yaml", path.join(root, "broken.yaml"));
    expect(await match(root, "**")).toEqual(["link.yaml", "specs/a.yaml"]);
    expect(await match(root, "out/**", "slash/etc", "specs-link/*.yaml", "specs-link")).toEqual([]);
    const found = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["**/*.yaml"],
      logger: silentLogger,
    });
    expect(found.specs.map((spec) => spec.path)).toEqual(["specs/a.yaml"]);
  });

  it("prints nothing on stdout or stderr", async () => {
    const root = await tree(FILES);
    await fs.symlink("missing.yaml", path.join(root, "broken.yaml"));
    const stdout = vi.spyOn(process.stdout, "write");
    const stderr = vi.spyOn(process.stderr, "write");
    const log = vi.spyOn(console, "log");
    await match(root, "**/*.yaml\n!**/drafts/**\nnot-there/**\n# comment");
    await discoverSpecs({ workspace: root, git: commandLineGit, patterns: ["specs"], logger: silentLogger });
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it("refuses absolute, home-relative and `..` patterns", async () => {
    const root = await tree(FILES);
    const abs = path.join(os.tmpdir(), "x.yaml");
    for (const pattern of [abs, "~/x.yaml", "!~", "specs/../x.yaml", "./../x", "a/./b"]) {
      await expect(match(root, pattern), pattern).rejects.toBeInstanceOf(DiscoveryError);
    }
  });

  it("fails with the patterns named when a folder it must walk cannot be read", async () => {
    const missing = path.join(os.tmpdir(), `gitbook-openapi-no-such-workspace-${process.pid}`);
    const failure = match(missing, "**/*.yaml");
    await expect(failure).rejects.toBeInstanceOf(DiscoveryError);
    await expect(failure).rejects.toThrow(/^The file patterns cannot be used: ENOENT/);
  });

  it("walks into a folder only while some line could still match under it", async () => {
    const root = await tree({ ...FILES, "other/deep/e.yaml": OPENAPI_YAML });
    const read = vi.spyOn(fs, "readdir");
    expect(await match(root, "specs/drafts/*.yaml")).toEqual(["specs/drafts/b.yaml", "specs/drafts/c.yaml"]);
    const walked = read.mock.calls.map(([folder]) => path.relative(root, String(folder)) || ".").sort();
    expect(walked).toEqual([".", "specs", "specs/drafts"]);
  });
});
