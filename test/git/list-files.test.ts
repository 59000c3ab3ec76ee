/**
 * The Git port's listing of a work tree (src/adapters/git/list-files.ts), which discovery uses: tracked
 * and untracked files, what git ignores left out, narrowed by pathspecs; a folder that is not a work
 * tree is an answer with git's reason (or, with no .git above it, without starting git), never a throw.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { git } from "../support/git.ts";

let repo: string;
let plain: string;

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), "list-files-"));
  git(repo, "init", "-q", "-b", "main");
  mkdirSync(path.join(repo, "api"));
  mkdirSync(path.join(repo, "build"));
  writeFileSync(path.join(repo, ".gitignore"), "build/\n");
  writeFileSync(path.join(repo, "api", "tracked.yaml"), "openapi: 3.0.0\n");
  writeFileSync(path.join(repo, "README.md"), "readme\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "first");
  writeFileSync(path.join(repo, "api", "untracked.JSON"), "{}\n");
  writeFileSync(path.join(repo, "build", "ignored.yaml"), "openapi: 3.0.0\n");
  plain = mkdtempSync(path.join(tmpdir(), "list-files-plain-"));
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(plain, { recursive: true, force: true });
});

describe("commandLineGit.listFiles", () => {
  it("lists tracked and untracked files and leaves out what git ignores", async () => {
    const listing = await commandLineGit.listFiles(repo, []);
    expect(listing.ok && [...listing.paths].sort()).toEqual([
      ".gitignore",
      "README.md",
      "api/tracked.yaml",
      "api/untracked.JSON",
    ]);
  });

  it("narrows the list inside git with pathspecs", async () => {
    const listing = await commandLineGit.listFiles(repo, [":(icase)*.json", ":(icase)*.yaml"]);
    expect(listing.ok && [...listing.paths].sort()).toEqual(["api/tracked.yaml", "api/untracked.JSON"]);
  });

  it("answers with git's reason for a folder that is not a work tree", async () => {
    const broken = path.join(plain, "broken");
    mkdirSync(path.join(broken, ".git"), { recursive: true });
    const listing = await commandLineGit.listFiles(broken, []);
    expect(listing).toEqual({ ok: false, reason: expect.stringMatching(/^git exited with \d+: fatal: /) });
  });

  it("starts no git for a folder with no .git in it or above it", async () => {
    const listing = await commandLineGit.listFiles(plain, []);
    expect(listing).toEqual({ ok: false, reason: "no .git in the workspace or above it" });
  });
});
