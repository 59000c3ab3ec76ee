/**
 * The work tree's files as git lists them (`git ls-files`), for discovery: tracked and untracked, what
 * git ignores left out. A failure (not a work tree, no git, over its bounds) is an answer with its reason.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { GitListing } from "../../core/discovery/types.ts";
import { gitProblem, runGit } from "./run-git.ts";

/** A listing is local and quick; this only keeps a hung git from holding the run. */
const LIST_MS = 120_000;
/** Bytes of the listing (its NUL-separated names): a workspace past it is walked instead. */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

export async function listFiles(workspace: string, pathspecs: readonly string[]): Promise<GitListing> {
  if (!mayBeWorkTree(workspace)) return { ok: false, reason: "no .git in the workspace or above it" };
  const args = ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", ...pathspecs];
  const run = await runGit(workspace, args, { deadline: Date.now() + LIST_MS, maxStdout: MAX_LISTING_BYTES });
  if (run.code !== 0) return { ok: false, reason: gitProblem(run) };
  const paths = run.stdout.toString("utf8").split("\0").filter(Boolean);
  return { ok: true, paths: [...new Set(paths)] };
}

/**
 * Whether git could find a work tree at `workspace`: a `.git` (folder or file) there or in a folder above
 * it, or a variable that points git elsewhere. Where none is, git would only fail: it is not started
 * (5 ms of CPU and more on the clock, of a one-spec check outside a repository).
 */
function mayBeWorkTree(workspace: string): boolean {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE) return true;
  for (let folder = path.resolve(workspace); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, ".git"))) return true;
    if (path.dirname(folder) === folder) return false;
  }
}
