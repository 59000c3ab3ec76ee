import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkoutBaseTree, unsafeNameReason } from "../../src/adapters/git/base-tree.ts";
import { git } from "../support/git.ts";

const folders: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "base-tree-"));
  folders.push(dir);
  return dir;
}

/** An origin with two commits (base, head), and a clone of it that holds only the head. */
async function shallowClone(): Promise<{ clone: string; base: string }> {
  const origin = await folder();
  git(origin, "init", "-q", "-b", "main");
  await writeFile(path.join(origin, "api.yaml"), "version: base\n");
  git(origin, "add", "-A");
  git(origin, "commit", "-q", "-m", "base");
  const base = git(origin, "rev-parse", "HEAD");
  await writeFile(path.join(origin, "api.yaml"), "version: head\n");
  git(origin, "commit", "-q", "-am", "head");
  git(origin, "config", "uploadpack.allowReachableSHA1InWant", "true");
  const clone = await folder();
  execFileSync("git", ["clone", "-q", "--depth=1", pathToFileURL(origin).href, clone]);
  return { clone, base };
}

describe("checkoutBaseTree", () => {
  it("fetches the base commit into a shallow checkout and writes its tree to a temporary folder", async () => {
    const { clone, base } = await shallowClone();
    expect(() => git(clone, "cat-file", "-e", `${base}^{commit}`)).toThrow();
    const tree = await checkoutBaseTree(clone, base);
    expect(tree.ok).toBe(true);
    if (!tree.ok) return;
    expect(await readFile(path.join(tree.root, "api.yaml"), "utf8")).toBe("version: base\n");
    expect(await readFile(path.join(clone, "api.yaml"), "utf8")).toBe("version: head\n");
    await tree.dispose();
  });

  it("says why when the commit cannot be had, and refuses what is not a commit id", async () => {
    const { clone } = await shallowClone();
    const missing = await checkoutBaseTree(clone, "f".repeat(40));
    expect(missing).toEqual({
      ok: false,
      missing: true,
      reason: expect.stringContaining("is not in the checkout and could not be fetched"),
    });
    expect(await checkoutBaseTree(clone, "--upload-pack=touch /tmp/x")).toEqual({
      ok: false,
      reason: expect.stringContaining("is not a commit id"),
    });
  });
});

/** Runs git with `input` on its stdin; returns its trimmed output. */
function gitWith(dir: string, input: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { input, encoding: "utf8" }).trim();
}

/**
 * A commit whose tree holds what `git add` refuses but a tree object can name: a `..` folder (listed as
 * `../evil.yaml`), a `.git` folder and a `.GIT` file; and what some work trees can hold: a name with a
 * line break, a name of 250 bytes in one segment, a path longer than 512 bytes, a symbolic link. Built
 * from objects alone, so that no file system has to hold those names.
 */
async function hostileCommit(): Promise<{ repo: string; commit: string }> {
  const repo = await folder();
  git(repo, "init", "-q", "-b", "main");
  const blob = (text: string) => gitWith(repo, text, "hash-object", "-w", "--stdin");
  const tree = (...entries: string[]) => gitWith(repo, `${entries.join("\0")}\0`, "mktree", "-z");
  const [spec, weird, long, deep, evil, link] = [
    "openapi: 3.0.3\n",
    "line break\n",
    "long\n",
    "deep\n",
    "evil\n",
    "../../../etc/passwd",
  ].map(blob);
  const segment = "d".repeat(200);
  let nested = tree(`100644 blob ${deep}\tdeep.yaml`);
  for (let level = 0; level < 2; level++) nested = tree(`040000 tree ${nested}\t${segment}`);
  const root = tree(
    `100644 blob ${spec}\tspec.yaml`,
    `100644 blob ${weird}\twe\nird.yaml`,
    `100644 blob ${long}\t${"n".repeat(250)}.yaml`,
    `040000 tree ${nested}\t${segment}`,
    `040000 tree ${tree(`100644 blob ${evil}\tevil.yaml`)}\t..`,
    `040000 tree ${tree(`100644 blob ${evil}\tconfig`)}\t.git`,
    `100644 blob ${evil}\t.GIT`,
    `120000 blob ${link}\tlink.yaml`,
  );
  const commit = gitWith(repo, "hostile\n", "-c", "user.name=T", "-c", "user.email=t@e", "commit-tree", root);
  return { repo, commit };
}

describe("checkoutBaseTree and the names a commit holds", () => {
  it("writes what is safe, says what it skipped, and writes nothing outside its folder", async () => {
    const { repo, commit } = await hostileCommit();
    const tree = await checkoutBaseTree(repo, commit, { limits: { maxNameBytes: 512 } });
    expect(tree.ok).toBe(true);
    if (!tree.ok) return;
    folders.push(tree.root);
    const windows = process.platform === "win32";
    expect(await readFile(path.join(tree.root, "spec.yaml"), "utf8")).toBe("openapi: 3.0.3\n");
    const skipped = Object.fromEntries(tree.skipped ?? []);
    if (windows) expect(skipped["we\nird.yaml"]).toBe("has a name Windows cannot write as it is");
    else expect(await readFile(path.join(tree.root, "we\nird.yaml"), "utf8")).toBe("line break\n");
    // Written, or said not to be where the file system refuses a name that long.
    const longName = `${"n".repeat(250)}.yaml`;
    const longWritten = await readFile(path.join(tree.root, longName), "utf8").catch(() => undefined);
    if (longWritten === undefined) expect(skipped[longName]).toMatch(/^could not be written here/);
    else expect(longWritten).toBe("long\n");
    expect(skipped["../evil.yaml"]).toBe("has a name with an empty, . or .. segment");
    expect(skipped[".git/config"]).toBe("has a name with a .git segment");
    expect(skipped[".GIT"]).toBe("has a name with a .git segment");
    expect(skipped["link.yaml"]).toBe("is a symbolic link, which the review does not follow");
    const deep = Object.keys(skipped).find((name) => name.endsWith("deep.yaml"));
    expect(deep && skipped[deep]).toBe("has a name longer than 512 bytes");
    const written = [
      ...(longWritten === undefined ? [] : [longName]),
      "spec.yaml",
      ...(windows ? [] : ["we\nird.yaml"]),
    ];
    expect((await readdir(tree.root)).sort()).toEqual(written);
    expect(await stat(path.join(tree.root, "..", "evil.yaml")).catch(() => undefined)).toBeUndefined();
    await tree.dispose();
    expect(await stat(tree.root).catch(() => undefined)).toBeUndefined();
  });

  it("refuses a tree over its bounds, and a read over its budget, as failures rather than a missing commit", async () => {
    const repo = await folder();
    git(repo, "init", "-q", "-b", "main");
    for (let index = 0; index < 50; index++) await writeFile(path.join(repo, `${index}.yaml`), "x: 1\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "many");
    const commit = git(repo, "rev-parse", "HEAD");
    expect(await checkoutBaseTree(repo, commit, { limits: { maxFiles: 20 } })).toEqual({
      ok: false,
      reason: `git ls-tree ${commit.slice(0, 12)} failed: the commit has more than 20 files, more than the review reads`,
    });
    expect(await checkoutBaseTree(repo, commit, { limits: { maxBytes: 100 } })).toEqual({
      ok: false,
      reason: "its files hold 250 bytes, more than the 100 the review writes out",
    });
    const late = await checkoutBaseTree(repo, commit, { timeoutMs: 0 });
    expect(late).toEqual({ ok: false, reason: expect.stringContaining("its time budget was spent") });
    const whole = await checkoutBaseTree(repo, commit);
    expect(whole.ok && (await readdir(whole.root)).length).toBe(50);
    if (whole.ok) await whole.dispose();
  });
});

describe("checkoutBaseTree and its temporary folder", () => {
  it("refuses a temporary folder inside a work tree, whose git would hide the files from discovery", async () => {
    const repo = await folder();
    git(repo, "init", "-q", "-b", "main");
    await writeFile(path.join(repo, "api.yaml"), "openapi: 3.0.3\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    const temporary = path.join(repo, "tmp");
    await mkdir(temporary);
    for (const name of ["TMPDIR", "TMP", "TEMP"]) vi.stubEnv(name, temporary);
    const tree = await checkoutBaseTree(repo, git(repo, "rev-parse", "HEAD"));
    expect(tree).toEqual({
      ok: false,
      reason: expect.stringContaining("is inside a git work tree; point TMPDIR"),
    });
    expect(await readdir(temporary)).toEqual([]);
  });
});

describe("checkoutBaseTree without git", () => {
  it("says git is missing, as a failure to read rather than a missing commit", async () => {
    const repo = await folder();
    git(repo, "init", "-q", "-b", "main");
    await writeFile(path.join(repo, "api.yaml"), "openapi: 3.0.3\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    const commit = git(repo, "rev-parse", "HEAD");
    vi.stubEnv("PATH", await folder());
    expect(await checkoutBaseTree(repo, commit)).toEqual({
      ok: false,
      reason: `git could not tell whether the base commit ${commit.slice(0, 12)} is in the checkout: git is not installed or not on PATH`,
    });
  });
});

describe("unsafeNameReason", () => {
  it("refuses names that leave, alias or turn the folder into a repository, and on Windows what NTFS reads as another", () => {
    for (const name of [
      "../a.yaml",
      "a/../b.yaml",
      "/etc/passwd",
      "a//b.yaml",
      "./a.yaml",
      ".git/config",
      "x/.Git/HEAD",
    ])
      expect(unsafeNameReason(name, 1024, "linux"), name).toBeDefined();
    for (const name of ["a.yaml", "we\nird.yaml", "a\\b.yaml", "a:b.yaml", "nul.yaml", "dots..yaml"])
      expect(unsafeNameReason(name, 1024, "linux"), name).toBeUndefined();
    for (const name of [
      "a\\..\\b.yaml",
      "C:/x.yaml",
      "a:b.yaml",
      "nul.yaml",
      "COM1",
      "spec.yaml.",
      "spec.yaml ",
      ".git./x",
      "GIT~1/config",
      "we\nird.yaml",
    ])
      expect(unsafeNameReason(name, 1024, "win32"), name).toBeDefined();
    expect(unsafeNameReason("api/spec.yaml", 1024, "win32")).toBeUndefined();
    expect(unsafeNameReason("a".repeat(1025), 1024, "linux")).toBe("has a name longer than 1024 bytes");
  });
});
