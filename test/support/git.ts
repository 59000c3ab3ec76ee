import { execFileSync } from "node:child_process";

/** Runs git in `dir` with a fixed identity, as tests that make commits need; returns its trimmed output. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  ).trim();
}

/** Makes `dir` a repository on `main` whose one commit holds the files now in it. */
export function initCommitted(dir: string, message = "base"): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
}
