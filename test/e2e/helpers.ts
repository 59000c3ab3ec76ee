import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repositoryRoot } from "../../tools/action-runner.ts";

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

export interface RawFileServer {
  serverUrl: string;
  close(): Promise<void>;
}

/**
 * Stands in for the GitHub server's raw-file URLs (`source: url`): answers each path with the
 * handler's choice — a body, or silence (the request hangs until the server closes).
 */
export async function startRawFileServer(
  answer: (path: string) => { status: number; body: string; type?: string } | "hang",
): Promise<RawFileServer> {
  const hanging = new Set<import("node:http").ServerResponse>();
  const server: Server = createServer((request, response) => {
    const reply = answer(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    if (reply === "hang") {
      hanging.add(response);
      return;
    }
    response.writeHead(reply.status, { "content-type": reply.type ?? "text/plain" }).end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    serverUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
