import { execFileSync } from "node:child_process";

/**
 * The parents of `commit` as its object records them, or undefined when git cannot tell. Read with
 * `cat-file`, which shows a shallow clone's commit whole: the merge commit a pull request build checks
 * out one deep still names the target branch's commit as its first parent.
 */
export function commitParents(workspace: string, commit: string): string[] | undefined {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  let text: string;
  try {
    text = execFileSync("git", ["-C", workspace, "cat-file", "commit", commit], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
      maxBuffer: 1024 * 1024,
    });
  } catch {
    return undefined;
  }
  const header = text.split("\n\n", 1)[0] ?? "";
  return header.split("\n").flatMap((line) => /^parent ([0-9a-f]{40,64})$/.exec(line)?.[1] ?? []);
}
