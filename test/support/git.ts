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
