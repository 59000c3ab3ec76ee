/**
 * What the run asks git about commits: a file as a commit has it (the base commit's configuration file),
 * whether one commit is an ancestor of another (a publish record's commit and the run's), and the commit
 * the work tree is at. Each answer that git cannot give says why, never throws.
 */
import type { Ancestry, FileAtCommit } from "../../core/ports.ts";
import { gitProblem, runGit } from "./run-git.ts";

const COMMIT = /^[0-9a-f]{7,64}$/;
/** A configuration file is small; anything larger is refused rather than read whole. */
const MAX_FILE_BYTES = 1024 * 1024;
/** A local question to git. */
const QUESTION_MS = 30_000;
/**
 * Fetching a base commit for its configuration file, before the run's own clock starts: a remote that
 * hangs costs this, not the job's whole time (the change review's own fetch has its own budget).
 */
const FETCH_MS = 10_000;

function git(workspace: string, args: string[], budgetMs = QUESTION_MS) {
  return runGit(workspace, args, { deadline: Date.now() + budgetMs, maxStdout: MAX_FILE_BYTES });
}

export async function fileAtCommit(workspace: string, commit: string, file: string): Promise<FileAtCommit> {
  if (!COMMIT.test(commit)) return { ok: false, reason: `${JSON.stringify(commit)} is not a commit id` };
  // `./`: the path is the workspace's, which may be a folder of the repository.
  const object = `${commit}:./${file.replace(/\\/g, "/").replace(/^\.?\//, "")}`;
  if (!(await hasCommit(workspace, commit))) {
    // A shallow checkout (a pull request's merge commit, one deep) lacks the base: fetch that one commit.
    const fetched = await git(workspace, ["fetch", "--no-tags", "--depth=1", "origin", commit], FETCH_MS);
    if (!(await hasCommit(workspace, commit)))
      return {
        ok: false,
        reason: `the commit ${commit.slice(0, 12)} is not in the checkout and could not be fetched (${gitProblem(fetched)})`,
      };
  }
  const type = await git(workspace, ["cat-file", "-t", "--", object]);
  if (type.code !== 0) return { ok: true, text: undefined };
  if (type.stdout.toString("utf8").trim() !== "blob") {
    return { ok: false, reason: `${file} at ${commit.slice(0, 12)} is not a file` };
  }
  const shown = await git(workspace, ["cat-file", "blob", object]);
  if (shown.code !== 0) {
    return {
      ok: false,
      reason: `git could not read ${file} at ${commit.slice(0, 12)}: ${gitProblem(shown)}`,
    };
  }
  return { ok: true, text: shown.stdout.toString("utf8") };
}

async function hasCommit(workspace: string, commit: string): Promise<boolean> {
  return (await git(workspace, ["cat-file", "-e", `${commit}^{commit}`])).code === 0;
}

export async function isAncestor(workspace: string, ancestor: string, descendant: string): Promise<Ancestry> {
  for (const commit of [ancestor, descendant]) {
    if (!COMMIT.test(commit)) return { known: false, reason: `${JSON.stringify(commit)} is not a commit id` };
  }
  const answer = await git(workspace, ["merge-base", "--is-ancestor", ancestor, descendant]);
  if (answer.code === 0) return { known: true, ancestor: true };
  const shallow = await git(workspace, ["rev-parse", "--is-shallow-repository"]);
  const isShallow = shallow.stdout.toString("utf8").trim() === "true";
  if (answer.code === 1 && !isShallow) return { known: true, ancestor: false };
  const reason =
    answer.code === 1
      ? `the checkout is shallow, so git cannot tell whether ${ancestor.slice(0, 12)} precedes ${descendant.slice(0, 12)}`
      : `git does not know the commit ${ancestor.slice(0, 12)}${isShallow ? " (the checkout is shallow)" : ""}`;
  return { known: false, reason };
}

export async function headCommit(workspace: string): Promise<string | undefined> {
  const answer = await git(workspace, ["rev-parse", "--verify", "HEAD^{commit}"]);
  const commit = answer.stdout.toString("utf8").trim();
  return answer.code === 0 && COMMIT.test(commit) ? commit : undefined;
}
