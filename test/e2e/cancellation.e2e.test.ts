/**
 * A cancelled job, as the GitHub runner cancels a step: SIGINT to the action's `node` (SIGTERM when
 * SIGINT is not enough, or from other hosts). The action runs as the runner starts it (SIGINT, a real
 * signal to a process) or in this process (SIGTERM, through its signal port), against the emulator and
 * a fake GitHub over loopback, on a pull request. The emulator holds one upload without
 * an answer, so the run is busy when the signal comes; the test signals once the log shows the first
 * preview published and the held upload has reached the emulator — never after a time.
 *
 * The specs, in path order: `aa-broken.yaml` fails its local checks, `api-a.yaml` publishes,
 * `api-b.yaml`'s upload is held (cancelled), and `api-c.yaml` and `api-d.yaml` wait until the held spec
 * leaves (not started). The first three are over the 8 MiB the pipeline holds at once: each runs alone,
 * and they start before the others, the largest first (src/core/run/pipeline.ts `startOrder`), so
 * `api-b.yaml` holds the two others back.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { startActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { runActionInProcess, startActionInProcess } from "../../harness/runner/in-process-action.ts";
import { readCommentState } from "../../src/adapters/github/comment.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GITHUB_TOKEN = "ghs_fakeSignalToken789";
const ORG = "demo-org";

async function setUp() {
  const api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  const github = await startFakeGitHub();
  const padded = (text: string, mib: number) => `${text}x-padding: "${"p".repeat(mib * 1024 * 1024)}"\n`;
  const workspace = await emptyWorkspace({
    // Without `info.version`: it fails its checks.
    "aa-broken.yaml": padded("openapi: 3.1.0\ninfo:\n  title: Broken\npaths: {}\n", 11),
    "api-a.yaml": padded(minimalSpec("A"), 10),
    "api-b.yaml": padded(minimalSpec("B"), 9),
    "api-c.yaml": minimalSpec("C"),
    "api-d.yaml": minimalSpec("D"),
  });
  cleanups.push(
    () => api.close(),
    () => github.close(),
    () => removeWorkspace(workspace),
  );
  // Held without an answer until the emulator closes: the run cannot end on its own.
  api.script({ method: "PUT", path: `/v1/orgs/${ORG}/openapi/api-b-pr-7`, fault: { delayMs: Infinity } });
  return { api, github, workspace };
}

function pullRequestEvent(action: string) {
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      merged: false,
      head: { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
      base: { ref: "main", repo: { full_name: "acme/widgets" } },
    },
  };
}

function runnerOptions(
  setup: { api: RunningEmulator; github: FakeGitHub; workspace: string },
  action: string,
) {
  return {
    workspace: setup.workspace,
    inputs: {
      token: setup.api.token,
      organization: ORG,
      "api-url": setup.api.baseUrl,
      concurrency: "2",
    },
    githubToken: GITHUB_TOKEN,
    eventName: "pull_request",
    eventPayload: pullRequestEvent(action),
    env: {
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_SHA: "c".repeat(40),
      GITHUB_RUN_ID: "42",
      GITHUB_API_URL: setup.github.apiUrl,
      GITHUB_SERVER_URL: setup.github.apiUrl.replace(/\/api\/v3$/, ""),
    },
  };
}

/** Resolves once the emulator has received the held upload. */
async function heldUploadArrived(api: RunningEmulator): Promise<void> {
  const arrived = () => api.requests.some((r) => r.method === "PUT" && r.path.endsWith("/api-b-pr-7"));
  while (!arrived()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const results = (outputs: Record<string, string>) =>
  (
    JSON.parse(outputs.results ?? "[]") as { file: string; slug: string; status: string; errors: string[] }[]
  ).map((r) => [r.file, r.status]);

/** The action started as the runner starts it (a process, killed), or in this process (signalled). */
async function start(where: "process" | "in process", options: ReturnType<typeof runnerOptions>) {
  if (where === "in process") return startActionInProcess(options);
  const running = await startActionLikeRunner(options);
  return { ...running, signal: (signal: NodeJS.Signals) => running.child.kill(signal) };
}

describe.each([
  ["SIGINT", 130, "process"],
  ["SIGTERM", 143, "in process"],
] as const)("a job cancelled with %s (%s)", (signal, exitCode, where) => {
  it(`writes the results, the job summary and the comment, then exits ${exitCode}`, async () => {
    const setup = await setUp();
    const running = await start(where, runnerOptions(setup, "opened"));
    await running.waitForLog(/^::group::api-a\.yaml → api-a-pr-7: published$/m);
    await heldUploadArrived(setup.api);
    running.signal(signal);
    const run = await running.finished;

    expect(run.exitCode, run.stdout + run.stderr).toBe(exitCode);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toContain(`${signal} received (the job is being cancelled)`);
    expect(results(run.outputs)).toEqual([
      ["aa-broken.yaml", "failed"],
      ["api-a.yaml", "published"],
      ["api-b.yaml", "cancelled"],
      ["api-c.yaml", "skipped"],
      ["api-d.yaml", "skipped"],
    ]);
    expect(run.outputs["comment-url"]).toBeDefined();

    // The job summary names each spec's state.
    const headline = `interrupted by ${signal}: 1 published, 1 failed, 1 cancelled, 2 not started`;
    expect(run.summary).toContain(`## GitBook OpenAPI: ${headline}`);
    const rows = run.summary.split("\n").filter((line) => line.startsWith("| `"));
    expect(rows.map((row) => row.split(" | ").slice(0, 3))).toEqual([
      ["| `aa-broken.yaml`", "`aa-broken-pr-7`", "❌ failed"],
      ["| `api-a.yaml`", "`api-a-pr-7`", "✅ published (new)"],
      ["| `api-b.yaml`", "`api-b-pr-7`", "🛑 cancelled"],
      ["| `api-c.yaml`", "`api-c-pr-7`", "⏭️ skipped"],
      ["| `api-d.yaml`", "`api-d-pr-7`", "⏭️ skipped"],
    ]);
    expect(run.summary).toContain(`Not started: interrupted by ${signal}`);
    expect(run.annotations.filter((a) => a.level === "error").at(-1)?.message).toMatch(
      new RegExp(`^interrupted by ${signal}: 1 published, 1 failed, 1 cancelled, 2 not started\\.`),
    );

    // The comment records the preview published before the signal (and the one cancelled under way,
    // which GitBook may hold), so that closing the pull request deletes them.
    const comments = setup.github.comments(7);
    expect(comments).toHaveLength(1);
    const body = comments[0]?.body ?? "";
    expect(body).toContain(
      `🛑 Interrupted by ${signal} (preview for #7): 1 published, 1 failed, 1 cancelled`,
    );
    expect(readCommentState(body)?.previews).toEqual(["api-a-pr-7", "api-b-pr-7"]);
    expect(setup.api.getSpec(ORG, "api-a-pr-7")).toBeDefined();

    // The file is gone from the branch when the pull request closes: only the comment's record names
    // its preview, and the cleanup deletes it.
    await rm(path.join(setup.workspace, "api-a.yaml"));
    const closed = await runActionInProcess(runnerOptions(setup, "closed"));
    expect(closed.exitCode, closed.stdout).toBe(0);
    expect(setup.api.getSpec(ORG, "api-a-pr-7")).toBeUndefined();
  });
});
