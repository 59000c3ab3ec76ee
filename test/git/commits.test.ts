import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fileAtCommit, headCommit, isAncestor } from "../../src/adapters/git/commits.ts";

let repo: string;
let first: string;
let second: string;
let side: string;
let shallow: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).trim();

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), "commits-"));
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "gitbook-openapi.yaml"), "api-url: https://api.gitbook.com\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "first");
  first = git(repo, "rev-parse", "HEAD");
  writeFileSync(path.join(repo, "api.yaml"), "openapi: 3.1.0\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "second");
  second = git(repo, "rev-parse", "HEAD");
  git(repo, "checkout", "-qb", "side", first);
  writeFileSync(path.join(repo, "other.yaml"), "x: 1\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "side");
  side = git(repo, "rev-parse", "HEAD");
  git(repo, "checkout", "-q", "main");
  shallow = mkdtempSync(path.join(tmpdir(), "commits-shallow-"));
  execFileSync("git", ["clone", "-q", "--depth=1", `file://${repo}`, shallow]);
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(shallow, { recursive: true, force: true });
});

describe("fileAtCommit", () => {
  it("reads a file as the commit has it, and says when the commit has none", async () => {
    expect(await fileAtCommit(repo, first, "gitbook-openapi.yaml")).toEqual({
      ok: true,
      text: "api-url: https://api.gitbook.com\n",
    });
    expect(await fileAtCommit(repo, first, "api.yaml")).toEqual({ ok: true, text: undefined });
  });

  it("reads a path relative to the folder asked, which may be a folder of the repository", async () => {
    const sub = path.join(repo, "sub");
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, "gitbook-openapi.yaml"), "slug-prefix: sub\n");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "sub");
    const commit = git(repo, "rev-parse", "HEAD");
    git(repo, "reset", "-q", "--hard", second);
    mkdirSync(sub);
    expect(await fileAtCommit(sub, commit, "gitbook-openapi.yaml")).toEqual({
      ok: true,
      text: "slug-prefix: sub\n",
    });
    expect(await fileAtCommit(sub, commit, "../gitbook-openapi.yaml")).toEqual({
      ok: true,
      text: "api-url: https://api.gitbook.com\n",
    });
  });

  it("fetches a commit a shallow checkout lacks (a pull request's base), then reads the file", async () => {
    expect(await fileAtCommit(shallow, first, "gitbook-openapi.yaml")).toEqual({
      ok: true,
      text: "api-url: https://api.gitbook.com\n",
    });
  });

  it("refuses what is not a commit id and names an unknown commit", async () => {
    expect(await fileAtCommit(repo, "HEAD", "api.yaml")).toMatchObject({ ok: false });
    const unknown = await fileAtCommit(repo, "0".repeat(40), "api.yaml");
    expect(unknown).toEqual({ ok: false, reason: expect.stringContaining("not in the checkout") });
  });
});

describe("isAncestor", () => {
  it("answers yes and no in a full clone", async () => {
    expect(await isAncestor(repo, first, second)).toEqual({ known: true, ancestor: true });
    expect(await isAncestor(repo, second, first)).toEqual({ known: true, ancestor: false });
    expect(await isAncestor(repo, side, second)).toEqual({ known: true, ancestor: false });
  });

  it("does not guess in a shallow clone or on an unknown commit", async () => {
    expect(await isAncestor(shallow, first, second)).toMatchObject({ known: false });
    expect(await isAncestor(repo, "1".repeat(40), second)).toMatchObject({ known: false });
  });
});

describe("headCommit", () => {
  it("names the work tree's commit, and nothing outside a repository", async () => {
    expect(await headCommit(repo)).toBe(second);
    expect(await headCommit(tmpdir())).toBeUndefined();
  });
});
