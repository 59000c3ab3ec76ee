/**
 * Issue 8, end to end on the action: whose comment is ours, which previews a cleanup may delete,
 * bounded network waits, processing verdicts, path parameters and plain http.
 */
import { execFileSync } from "node:child_process";
import { appendFile, symlink, truncate } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { specBody, startStandIn, versionBody } from "../../harness/fakes/hostile-services.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { commentMarker, renderCommentState } from "../../src/adapters/github/comment-marker.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GITHUB_TOKEN = "ghs_fakeGitHubToken123";
const repo = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "c".repeat(40), GITHUB_RUN_ID: "42" };

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  return dir;
}

async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  const api = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 }, ...options });
  cleanups.push(() => api.close());
  return api;
}

async function github(options: Parameters<typeof startFakeGitHub>[0] = {}): Promise<FakeGitHub> {
  const fake = await startFakeGitHub(options);
  cleanups.push(() => fake.close());
  return fake;
}

/** A server that accepts every connection and never answers. */
async function silentServer(): Promise<string> {
  const server: Server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function pullRequestEvent(action: string) {
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      merged: action === "closed",
      head: { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
      base: { ref: "main", repo: { full_name: "acme/widgets" } },
    },
  };
}

function runOnPullRequest(
  dir: string,
  api: { token: string; baseUrl: string },
  gh: { apiUrl: string },
  action: string,
  inputs: Record<string, string> = {},
) {
  return runActionInProcess({
    workspace: dir,
    inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl, ...inputs },
    githubToken: GITHUB_TOKEN,
    eventName: "pull_request",
    eventPayload: pullRequestEvent(action),
    env: { ...repo, GITHUB_API_URL: gh.apiUrl, GITHUB_SERVER_URL: gh.apiUrl },
  });
}

type Result = { file: string; slug: string; status: string; errorCode: string | null; errors: string[] };
const resultsOf = (outputs: Record<string, string>) => JSON.parse(outputs.results ?? "null") as Result[];

const forgedBody = (previews: string[]) =>
  `${commentMarker("default")}\nLooks like the action's comment.\n${renderCommentState("default", { previews })}`;

describe("only our own comment, only this pull request's previews (items 1 and 8)", () => {
  it("never edits or believes a stranger's or another bot's comment carrying our marker", async () => {
    const api = await emulator();
    api.seedSpec("demo-org", "api-one", minimalSpec("Live"));
    const gh = await github();
    const forged = forgedBody(["api-one"]);
    const [stranger] = gh.seedComments(7, [forged]);
    const [otherBot] = gh.seedComments(7, [forged], { login: "helpful-bot[bot]", type: "Bot" });
    const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });

    const preview = await runOnPullRequest(dir, api, gh, "opened");
    expect(preview.exitCode).toBe(0);
    expect(gh.requests.filter((r) => r.method === "PATCH" || r.method === "DELETE")).toEqual([]);
    const ours = gh.comments(7).filter((c) => c.user.login === "github-actions[bot]");
    expect(ours).toHaveLength(1);
    expect(preview.outputs["comment-url"]).toContain(`#issuecomment-${ours[0]?.id}`);

    const closed = await runOnPullRequest(dir, api, gh, "closed");
    expect(closed.exitCode).toBe(0);
    expect(resultsOf(closed.outputs).map((r) => [r.slug, r.status])).toEqual([["widgets-pr-7", "deleted"]]);
    expect(api.getSpec("demo-org", "api-one")).toBeDefined();
    expect(api.getSpec("demo-org", "widgets-pr-7")).toBeUndefined();
    const deletes = api.requests.filter((r) => r.method === "DELETE").map((r) => r.path);
    expect(deletes).toEqual(["/v1/orgs/demo-org/openapi/widgets-pr-7"]);
    for (const theirs of [stranger, otherBot]) {
      expect(gh.comments(7).find((c) => c.id === theirs?.id)?.body).toBe(forged);
    }
  });

  it("deletes from its own record only this pull request's previews, and warns about the rest", async () => {
    const api = await emulator();
    for (const slug of ["api-one", "widgets-pr-8", "gone-pr-7"])
      api.seedSpec("demo-org", slug, minimalSpec(slug));
    const gh = await github();
    gh.seedComments(7, [forgedBody(["api-one", "widgets-pr-8", "gone-pr-7"])], {
      login: "github-actions[bot]",
      type: "Bot",
    });
    const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });

    const closed = await runOnPullRequest(dir, api, gh, "closed");

    expect(closed.exitCode).toBe(0);
    expect(
      resultsOf(closed.outputs)
        .map((r) => r.slug)
        .sort(),
    ).toEqual(["gone-pr-7", "widgets-pr-7"]);
    expect(api.getSpec("demo-org", "api-one")).toBeDefined();
    expect(api.getSpec("demo-org", "widgets-pr-8")).toBeDefined();
    expect(api.getSpec("demo-org", "gone-pr-7")).toBeUndefined();
    const warnings = closed.annotations.filter((a) => a.level === "warning").map((a) => a.message);
    expect(warnings).toEqual([
      expect.stringContaining('records "api-one", which is not a preview slug of pull request #7'),
      expect.stringContaining('records "widgets-pr-8", which is not a preview slug of pull request #7'),
    ]);
  });
});

describe("no hangs: one deadline for the run (item 4)", () => {
  it("ends soon after `timeout` when GitBook accepts connections and never answers", async () => {
    const silent = await silentServer();
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`specs/s${i}.yaml`, minimalSpec(`S${i}`)]),
    );
    const dir = await workspace(files);
    const started = Date.now();
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: "gb_token_abcdefgh", organization: "demo-org", "api-url": silent, timeout: "3" },
      env: repo,
    });
    const elapsed = Date.now() - started;

    expect(run.exitCode).toBe(1);
    expect(elapsed).toBeLessThan(3_000 + 8_000);
    const results = resultsOf(run.outputs);
    expect(results).toHaveLength(12);
    for (const result of results) {
      expect(result.status).toBe("failed");
      expect(result.errors.join(" ")).toMatch(
        /PUT \/v1\/orgs\/demo-org\/openapi\/specs-s\d+ did not complete/,
      );
      expect(result.errors.join(" ")).toContain("'timeout'");
    }
  });

  it("does not let a GitHub that never answers hold the job: the comment is best-effort", async () => {
    const api = await emulator();
    const silent = await silentServer();
    const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });
    const started = Date.now();
    // Time enough to publish on a loaded machine; the comment then waits out the run's deadline and grace.
    const run = await runOnPullRequest(dir, api, { apiUrl: silent }, "opened", { timeout: "5" });
    const elapsed = Date.now() - started;

    expect(run.exitCode).toBe(0);
    expect(resultsOf(run.outputs).map((r) => r.status)).toEqual(["published"]);
    expect(elapsed).toBeLessThan(5_000 + 10_000 + 6_000);
    const warnings = run.annotations.filter((a) => a.level === "warning").map((a) => a.message);
    expect(warnings.join("\n")).toMatch(/no answer|time is up/);
  });
});

describe("GitBook's verdicts (item 6; item 5, waiting through faults, is faults.e2e.test.ts)", () => {
  it.each([
    ["an empty code", "", '""'],
    ["a number", 42, "42"],
  ])("fails a spec whose lastProcessErrorCode is %s, showing it as sent", async (_name, code, shown) => {
    const gitbook = await startStandIn((request) => {
      if (request.method === "PUT") {
        return {
          status: 201,
          body: specBody("widgets", { processingState: "pending", lastProcessedAt: undefined }),
        };
      }
      if (request.path.includes("/versions/")) return { status: 200, body: versionBody("v1") };
      return { status: 200, body: specBody("widgets", { lastProcessErrorCode: code }) };
    });
    cleanups.push(() => gitbook.close());
    const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: "gb_token_abcdefgh", organization: "org", "api-url": gitbook.url },
      env: repo,
    });

    expect(run.exitCode).toBe(1);
    expect(resultsOf(run.outputs)).toEqual([
      expect.objectContaining({ slug: "widgets", status: "failed", errorCode: shown }),
    ]);
  });
});

describe("inputs that would misdirect requests or the token (items 3 and 10)", () => {
  it.each([".", "..", "%2e%2e", "%2E."])(
    "refuses organization %j before any request",
    async (organization) => {
      const api = await emulator();
      const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });
      const run = await runActionInProcess({
        workspace: dir,
        inputs: { token: api.token, organization, "api-url": api.baseUrl },
        env: repo,
      });
      expect(run.exitCode).toBe(1);
      expect(api.requests).toEqual([]);
      const error = run.annotations.find((a) => a.level === "error")?.message ?? "";
      expect(error).toContain("organization");
      expect(error).toContain("dot segment");
    },
  );

  it("refuses a plain-http api-url that is not loopback, before sending the token anywhere", async () => {
    const dir = await workspace({ "openapi.yaml": minimalSpec("Widgets") });
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: "gb_token_abcdefgh", organization: "org", "api-url": "http://api.gitbook.example" },
      env: repo,
    });
    expect(run.exitCode).toBe(1);
    const error = run.annotations.find((a) => a.level === "error")?.message ?? "";
    expect(error).toContain("api-url");
    expect(error).toContain("clear text");
  });
});

describe("reading files: regular files only, a size limit, never out of the workspace (items 7, 11, 12)", () => {
  it("refuses a $ref to a FIFO and a FIFO named like a spec, naming them, and publishes the rest", async () => {
    const api = await emulator();
    const dir = await workspace({
      "good.yaml": minimalSpec("Good"),
      "piped/openapi.yaml":
        "openapi: 3.0.3\ninfo: {title: Piped, version: '1'}\npaths:\n  /a:\n    $ref: ./pipe.yaml\n",
    });
    execFileSync("mkfifo", [path.join(dir, "piped/pipe.yaml"), path.join(dir, "fifo.yaml")]);
    const started = Date.now();
    // Neither the default walk nor pattern matching lists a FIFO; only a $ref can reach one.
    const run = await runActionInProcess({
      workspace: dir,
      inputs: {
        token: api.token,
        organization: "demo-org",
        "api-url": api.baseUrl,
        files: "*.yaml\npiped/openapi.yaml",
      },
      env: repo,
    });

    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.exitCode).toBe(1);
    const byFile = Object.fromEntries(resultsOf(run.outputs).map((r) => [r.file, r]));
    expect(byFile["good.yaml"]?.status).toBe("published");
    expect(byFile["piped/openapi.yaml"]?.status).toBe("failed");
    expect(byFile["piped/openapi.yaml"]?.errors.join(" ")).toContain(
      "piped/pipe.yaml is a FIFO (named pipe)",
    );
    expect(byFile["fifo.yaml"]).toBeUndefined();
  });

  it("refuses a spec over the size limit before parsing it, says what to do, and publishes the rest", async () => {
    const api = await emulator();
    const dir = await workspace({ "good.yaml": minimalSpec("Good"), "huge.yaml": minimalSpec("Huge") });
    await appendFile(path.join(dir, "huge.yaml"), "x-padding: |\n");
    await truncate(path.join(dir, "huge.yaml"), 33 * 1024 * 1024); // sparse: nothing is written
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
      env: repo,
    });

    expect(run.exitCode).toBe(1);
    const byFile = Object.fromEntries(resultsOf(run.outputs).map((r) => [r.file, r]));
    expect(byFile["good.yaml"]?.status).toBe("published");
    expect(byFile["huge.yaml"]?.status).toBe("failed");
    expect(byFile["huge.yaml"]?.errorCode).toBe("FILE_TOO_LARGE");
    const reason = byFile["huge.yaml"]?.errors.join(" ") ?? "";
    expect(reason).toContain("huge.yaml is 33.0 MiB, over the 32.0 MiB limit");
    expect(reason).toContain("source: url");
    expect(api.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });

  it("does not follow links to / or .. with patterns, and publishes the workspace's specs quickly", async () => {
    const api = await emulator();
    const dir = await workspace({ "specs/a.yaml": minimalSpec("A"), "specs/b.yaml": minimalSpec("B") });
    await symlink("/", path.join(dir, "root"));
    await symlink("..", path.join(dir, "specs/up"));
    const started = Date.now();
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl, files: "**/*.yaml" },
      env: repo,
    });

    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.exitCode).toBe(0);
    expect(resultsOf(run.outputs).map((r) => r.file)).toEqual(["specs/a.yaml", "specs/b.yaml"]);
  });
});
