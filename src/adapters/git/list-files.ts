/**
 * The work tree's files as git lists them (`git ls-files`), for discovery: tracked and untracked, what
 * git ignores left out. A failure (not a work tree, no git, over its bounds) is an answer with its reason.
 */
import type { GitListing } from "../../core/discovery/types.ts";
import { gitProblem, runGit } from "./run-git.ts";

/** A listing is local and quick; this only keeps a hung git from holding the run. */
const LIST_MS = 120_000;
/** Bytes of the listing (its NUL-separated names): a workspace past it is walked instead. */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

export async function listFiles(workspace: string, pathspecs: readonly string[]): Promise<GitListing> {
  const args = ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", ...pathspecs];
  const run = await runGit(workspace, args, { deadline: Date.now() + LIST_MS, maxStdout: MAX_LISTING_BYTES });
  if (run.code !== 0) return { ok: false, reason: gitProblem(run) };
  const paths = run.stdout.toString("utf8").split("\0").filter(Boolean);
  return { ok: true, paths: [...new Set(paths)] };
}
