/**
 * A misconfigured run ends at its first request, said once, with the documented exit code: a wrong
 * token (3), an organization GitBook does not know (3), an API URL nothing answers on (1, after a short
 * bounded retry, not the run's whole deadline). `gitbook-openapi sync` in process against the emulator
 * over loopback.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { FIRST_CONTACT_RETRIES } from "../../src/adapters/http/retry.ts";
import { runCli } from "../../src/hosts/cli/program.ts";

const TOKEN = "fail-fast-token-5c1d9e";
let emulator: RunningEmulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN });
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-fail-fast-"));
  for (const name of ["a", "b", "c", "d"])
    await writeFile(
      path.join(workspace, `${name}.yaml`),
      `openapi: 3.0.3\ninfo: {title: ${name}, version: "1"}\npaths: {}\n`,
    );
});
afterAll(async () => {
  await emulator?.close();
  await rm(workspace, { recursive: true, force: true });
});

async function sync(env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["sync", "--workspace", workspace, "--json"], {
    env: {
      GITBOOK_ORGANIZATION: "demo-org",
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      ...env,
    },
    cwd: workspace,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  const results = JSON.parse(stdout) as { status: string; errors: string[] }[];
  return { code, stderr, results };
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, "g"))?.length ?? 0;

/** A loopback port that refuses connections: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a misconfigured sync stops at its first request", () => {
  it("a refused token: exit 3, one 401 message, no spec uploaded", async () => {
    const run = await sync({ GITBOOK_TOKEN: "not-the-token" });
    expect(run.code).toBe(3);
    expect(count(run.stderr, /401/)).toBe(1);
    expect(run.results.map((r) => r.status)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    expect(await emulator.listSpecs("demo-org")).toEqual([]);
  });

  it("an unknown organization: exit 3 (refused), said once, before any spec is planned", async () => {
    const before = emulator.requests.length;
    const run = await sync({ GITBOOK_ORGANIZATION: "no-such-org" });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^gitbook-openapi: error: GITBOOK_ORGANIZATION: GitBook knows no organization "no-such-org" that this token can see \(GET \S+ answered 404\)\. Check the organization id, or that the token belongs to a member of it\.$/m,
    );
    // One sentence, once: neither the service's words nor the client's advice repeat it.
    expect(count(run.stderr, /[Cc]heck the organization id/)).toBe(1);
    expect(run.stderr).not.toContain("Plan (");
    expect(run.stderr).not.toContain("skipped");
    expect(run.results.every((r) => r.status === "skipped")).toBe(true);
    // The run's first request, and nothing after it.
    expect(emulator.requests.slice(before).map((r) => r.method)).toEqual(["GET"]);
  });

  it(`an API URL nothing answers on: ${FIRST_CONTACT_RETRIES} retries, one message naming the host, exit 1`, async () => {
    const port = await closedPort();
    const run = await sync({ GITBOOK_API_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(count(run.stderr, /Retrying /)).toBe(FIRST_CONTACT_RETRIES);
    expect(count(run.stderr, /could not get a response from 127\.0\.0\.1/)).toBe(1);
    expect(run.stderr).toMatch(`gave up after ${FIRST_CONTACT_RETRIES + 1} attempts`);
    expect(run.results.every((r) => r.status === "skipped")).toBe(true);
  });
});

describe("a missing token", () => {
  it("is said in the command line's words: the variable, the flag and --mode check", async () => {
    let stderr = "";
    const code = await runCli(["sync", "--workspace", workspace], {
      env: { GITBOOK_ORGANIZATION: "demo-org" },
      cwd: workspace,
      stdout: { write: () => {} },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(2);
    expect(stderr).toContain("is required to publish. Set GITBOOK_TOKEN");
    expect(stderr).toContain("--token-file PATH, or use --mode check");
    expect(stderr).not.toMatch(/secrets\.|mode: check/);
  });
});

describe("a folder without specs", () => {
  it("is a configuration error (exit 2), said as the command's error", async () => {
    const empty = await mkdtemp(path.join(tmpdir(), "gitbook-no-specs-"));
    try {
      let stderr = "";
      const code = await runCli(["sync", "--workspace", empty, "--mode", "check"], {
        env: {},
        cwd: empty,
        stdout: { write: () => {} },
        stderr: { write: (text: string) => (stderr += text) },
      });
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^gitbook-openapi: error: Nothing to publish: no OpenAPI document was found in /m,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
