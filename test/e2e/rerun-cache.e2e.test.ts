/**
 * The re-run cache as the runner runs the Action (issue 28): `cache-file` kept between runs (as
 * `actions/cache` would restore it) spares every content read of a re-run where nothing changed; on a
 * pull request it is neither read nor written. docs/design/rerun-cache.md.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  const dir = await emptyWorkspace({ "a.yaml": minimalSpec("A"), "b.yaml": minimalSpec("B") });
  // Outside the workspace, as `${{ runner.temp }}` is.
  const temp = await mkdtemp(path.join(tmpdir(), "e2e-cache-"));
  cleanups.push(
    () => api.close(),
    () => removeWorkspace(dir),
    () => rm(temp, { recursive: true, force: true }),
  );
  return { api, dir, cache: path.join(temp, "gitbook-openapi.json") };
}

function run(
  s: { api: RunningEmulator; dir: string; cache: string },
  event: { name: string; payload: unknown } = { name: "push", payload: {} },
) {
  return runActionLikeRunner({
    workspace: s.dir,
    inputs: {
      token: s.api.token,
      organization: "demo-org",
      "api-url": s.api.baseUrl,
      "cache-file": s.cache,
      comment: "false",
    },
    eventName: event.name,
    eventPayload: event.payload,
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) },
  });
}

const contentReads = (api: RunningEmulator, from: number) =>
  api.requests.slice(from).filter((r) => r.method === "GET" && r.path.endsWith("/content")).length;

describe("cache-file", () => {
  it("spares a re-run's content reads, and is left alone on a pull request", async () => {
    const s = await setup();
    expect((await run(s)).exitCode).toBe(0);
    expect((await run(s)).exitCode).toBe(0);
    const written = await readFile(s.cache, "utf8");
    expect(JSON.parse(written)).toMatchObject({ format: "gitbook-openapi/rerun-cache", version: 1 });

    let before = s.api.requests.length;
    const warm = await run(s);
    expect(warm.exitCode).toBe(0);
    expect(warm.outputs.unchanged).toBe("2");
    expect(contentReads(s.api, before)).toBe(0);

    const pullRequest = {
      number: 7,
      pull_request: {
        number: 7,
        head: { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
        base: { ref: "main", sha: "c".repeat(40), repo: { full_name: "acme/widgets" } },
      },
    };
    const mtime = (await stat(s.cache)).mtimeMs;
    before = s.api.requests.length;
    const onPullRequest = await run(s, {
      name: "pull_request",
      payload: { action: "synchronize", ...pullRequest },
    });
    expect(onPullRequest.exitCode, onPullRequest.stdout).toBe(0);
    expect(onPullRequest.stdout).toContain("the 'cache-file' input is not used on pull or merge requests");
    expect((await stat(s.cache)).mtimeMs).toBe(mtime);
  });
});
