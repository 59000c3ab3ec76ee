import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkoutBaseTree } from "../../src/adapters/git/base-tree.ts";
import { git } from "../support/git.ts";

const folders: string[] = [];
afterEach(async () => {
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
  execFileSync("git", ["clone", "-q", "--depth=1", `file://${origin}`, clone]);
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
