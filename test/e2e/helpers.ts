import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { repositoryRoot } from "../../harness/runner/action-runner.ts";
import { startLocalServer } from "../support/emulator-fixtures.ts";

/** A copy of examples/ in a temp folder (not a git work tree), plus extra files. */
export async function exampleWorkspace(extraFiles: Record<string, string> = {}): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), "e2e-workspace-"));
  await cp(path.join(repositoryRoot, "examples"), workspace, { recursive: true });
  await writeFiles(workspace, extraFiles);
  return workspace;
}

export async function emptyWorkspace(files: Record<string, string>): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), "e2e-workspace-"));
  await writeFiles(workspace, files);
  return workspace;
}

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

export const removeWorkspace = (workspace: string) => rm(workspace, { recursive: true, force: true });

export const minimalSpec = (title: string) =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;

/**
 * Stands in for the GitHub server's raw-file URLs (`source: url`): answers each path with the
 * handler's choice — a body, or silence (the request hangs until the server closes).
 */
export async function startRawFileServer(
  answer: (path: string) => { status: number; body: string; type?: string } | "hang",
): Promise<{ serverUrl: string; close(): Promise<void> }> {
  const server = await startLocalServer((request, response) => {
    const reply = answer(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    if (reply === "hang") return;
    response.writeHead(reply.status, { "content-type": reply.type ?? "text/plain" }).end(reply.body);
  });
  return { serverUrl: server.url, close: () => server.close() };
}

/**
 * Every `::group::` line of a runner log closed by `::endgroup::` before the next group opens: groups
 * never nest or interleave. Returns each group's lines, by title.
 */
export function flatGroups(stdout: string): { title: string; lines: string[] }[] {
  const groups: { title: string; lines: string[] }[] = [];
  let open: { title: string; lines: string[] } | undefined;
  for (const line of stdout.split(/\r?\n/)) {
    const start = /^::group::(.*)$/.exec(line);
    if (start) {
      if (open) throw new Error(`group "${start[1]}" opens inside group "${open.title}"`);
      open = { title: start[1] as string, lines: [] };
    } else if (line === "::endgroup::") {
      if (!open) throw new Error("::endgroup:: without an open group");
      groups.push(open);
      open = undefined;
    } else {
      open?.lines.push(line);
    }
  }
  if (open) throw new Error(`group "${open.title}" never closes`);
  return groups;
}

/** The payload of a pull request event: pull request 7 of acme/widgets, from a branch of the same repository. */
export function pullRequest7Payload(commits: { head?: string; base?: string }, action = "synchronize") {
  const repo = { full_name: "acme/widgets" };
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: commits.head ?? "b".repeat(40), ref: "feature", repo },
      base: { ...(commits.base ? { sha: commits.base } : {}), ref: "main", repo },
    },
  };
}
