/**
 * The files of the review's base commit, for comparing each spec with what it was: the commit's tree
 * written into a temporary folder with `git archive`, fetched first (one commit, no history) when the
 * checkout is shallow and lacks it. Git only, nothing of a CI: the host says which commit.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import type { BaseTree, Git } from "../../core/sync/ports.ts";
import { fileAtCommit, headCommit, isAncestor } from "./commits.ts";

const run = promisify(execFile);

/** The Git port over the `git` command. */
export const commandLineGit: Git = {
  checkoutTree: checkoutBaseTree,
  fileAt: fileAtCommit,
  isAncestor,
  headCommit,
};

const COMMIT = /^[0-9a-f]{7,64}$/;

export async function checkoutBaseTree(workspace: string, commit: string): Promise<BaseTree> {
  if (!COMMIT.test(commit)) return { ok: false, reason: `${JSON.stringify(commit)} is not a commit id` };
  const git = (...args: string[]) => run("git", ["-C", workspace, ...args], { maxBuffer: 1024 * 1024 });
  const present = () =>
    git("cat-file", "-e", `${commit}^{commit}`).then(
      () => true,
      () => false,
    );
  if (!(await present())) {
    await git("fetch", "--no-tags", "--depth=1", "origin", commit).catch(() => undefined);
    if (!(await present())) {
      return {
        ok: false,
        reason: `the base commit ${commit.slice(0, 12)} is not in the checkout and could not be fetched`,
      };
    }
  }
  const root = await mkdtemp(path.join(tmpdir(), "gitbook-openapi-base-"));
  const dispose = () => rm(root, { recursive: true, force: true });
  try {
    await archiveInto(workspace, commit, root);
    return { ok: true, root, commit, dispose };
  } catch (error) {
    await dispose();
    return { ok: false, reason: `git archive ${commit.slice(0, 12)} failed: ${(error as Error).message}` };
  }
}

function archiveInto(workspace: string, commit: string, root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn("git", ["-C", workspace, "archive", "--format=tar", commit], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const extract = spawn("tar", ["-x", "-C", root], { stdio: ["pipe", "ignore", "pipe"] });
    archive.stdout.pipe(extract.stdin);
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      reject(error);
    };
    archive.on("error", fail);
    extract.on("error", fail);
    archive.on("close", (code) => {
      if (code !== 0) fail(new Error(`git archive exited with ${code}`));
    });
    extract.on("close", (code) => {
      if (code !== 0) fail(new Error(`tar exited with ${code}`));
      else if (!failed) resolve();
    });
  });
}
