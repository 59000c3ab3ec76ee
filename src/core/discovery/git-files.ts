import { spawn } from "node:child_process";

export type GitListing = { ok: true; paths: string[] } | { ok: false; reason: string };

/**
 * Files of the git work tree at `workspace` that git does not ignore (tracked and untracked, nested
 * `.gitignore` files honoured), relative to `workspace`. Fails when `workspace` is not a work tree or
 * git is missing. The list can name tracked files deleted from disk, submodule folders and, for
 * untracked nested repositories, folders with a trailing `/`; callers handle those when reading.
 * `pathspecs` narrow the list inside git (e.g. `:(icase)*.yaml`), which keeps the output small.
 */
export function listGitFiles(workspace: string, pathspecs: readonly string[] = []): Promise<GitListing> {
  const args = ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", ...pathspecs];
  return new Promise((resolve) => {
    const child = spawn("git", args, {
      cwd: workspace,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => resolve({ ok: false, reason: error.message }));
    child.on("close", (code) => {
      if (code !== 0) {
        resolve({
          ok: false,
          reason: Buffer.concat(err).toString("utf8").trim() || `git exited with ${code}`,
        });
        return;
      }
      const paths = Buffer.concat(out).toString("utf8").split("\0").filter(Boolean);
      resolve({ ok: true, paths: [...new Set(paths)] });
    });
  });
}
