/**
 * `gitbook-openapi versions content … --json` against a server whose content is huge (issue 16, item 3):
 * the command fails with the client's message (the call, the size, the cap) and exit code 1, without
 * buffering the answer. The server is a loopback stand-in: it announces 600 MB, or streams without end.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type LoopbackServer,
  type StreamState,
  startServer,
  streamLargeContent,
} from "../../harness/loopback/loopback.ts";
import { ExitCode } from "../../src/hosts/cli/exit-codes.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "cli-limits-token-5e1d9b3a7c";
const MiB = 1024 * 1024;

const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function content(args: string[], server: LoopbackServer) {
  return runCli(["versions", "content", ...args, "-o", "acme", "--json"], {
    env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: server.url },
  });
}

describe("versions content of a huge version (issue 16, item 3)", () => {
  it("fails at once on a Content-Length over the cap, naming the call, the size and the cap", async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(600 * MiB) });
      response.write('{"filesystem":');
    });
    servers.push(server);

    const run = await content(["pets", "v1"], server);

    expect(run.code).toBe(ExitCode.failed);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "GET /v1/orgs/acme/openapi/pets/versions/v1/content (getOpenAPISpecVersionContentById) announced 629145600 bytes (600 MiB) in its Content-Length, over the 67108864-byte (64 MiB) cap for a version's content",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("stops a content streamed without end past the cap, and does not ask again", async () => {
    const state: StreamState = { written: 0, closedEarly: false };
    // Three times the cap at most: a client that read on would get a valid answer, and print it.
    const server = await startServer((_request, response) => streamLargeContent(response, 192 * MiB, state));
    servers.push(server);

    const run = await content(["pets"], server);

    expect(run.code).toBe(ExitCode.failed);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "GET /v1/orgs/acme/openapi/pets/versions/latest/content (getLatestOpenAPISpecVersionContent) sent more than 64 MiB",
    );
    expect(run.stderr).toContain("not retried");
    expect(server.requests).toHaveLength(1);
    expect(state.written).toBeLessThan(96 * MiB);
  });
});
