/**
 * Ctrl-C and SIGTERM during `gitbook-openapi sync`, as a shell sends them: a new Node process running the
 * sources' main against the emulator, slowed down by its latency option so that the signal arrives
 * mid-run. Each test waits for a line of the log before signalling, never for a time.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { FAKE_GITLAB_BOT, FAKE_GITLAB_TOKEN, startFakeGitLab } from "../../harness/fakes/fake-gitlab.ts";
import { QUICK_POLLING } from "../../harness/runner/in-process-action.ts";
import { readCommentState } from "../../src/core/report/comment-state.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { runCli as runInProcess } from "../../src/hosts/cli/program.ts";
import type { SignalSource, StopSignal } from "../../src/hosts/cli/signals.ts";
import { git } from "../support/git.ts";
import { CLI_SOURCE, runCli } from "./run-cli.ts";

const TOKEN = "signals-token-5b7e2d";
const ORG = "demo-org";
// Enough that uploads one at a time still run when the first spec is seen published (1 s after its upload).
const SPECS = 40;

let emulator: RunningEmulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({
    token: TOKEN,
    processing: { pendingMs: 5, progressMs: 5 },
    // GitBook refuses one spec of the SIGINT run: the partial report says why it failed.
    faults: { latencyMs: 40, refusedSlugs: ["sigint-api-01"] },
  });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-signals-"));
  for (let i = 1; i <= SPECS; i++) {
    const name = `api-${String(i).padStart(2, "0")}`;
    await writeFile(
      path.join(workspace, `${name}.yaml`),
      `openapi: 3.1.0\ninfo:\n  title: ${name}\n  version: 1.0.0\npaths: {}\n`,
    );
  }
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stdout(): string;
  /** Resolves once stderr holds a line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startSync(slugPrefix: string, concurrency = 1): Running {
  return startCli(
    [
      "sync",
      "--workspace",
      workspace,
      "--slug-prefix",
      slugPrefix,
      "--concurrency",
      String(concurrency),
      "--json",
    ],
    {},
  );
}

function startCli(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [CLI_SOURCE, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      NO_COLOR: "1",
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: ORG,
      ...env,
    },
  });
  let stderr = "";
  let stdout = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve();
        waiters.push({ pattern, resolve });
        exited.then(() => reject(new Error(`exited before ${pattern}:\n${stderr}`)));
      }),
    exited,
  };
}

/** A spec's group title as the log writes it when the spec ends. */
const FIRST_PUBLISHED = /^api-\d+\.yaml → [\w-]+: published$/m;

describe("a signal during sync", () => {
  it("SIGINT: no other spec starts, the partial report (published, failed, not started) is printed, exit 130", async () => {
    const run = startSync("sigint");
    await run.waitFor(FIRST_PUBLISHED);
    run.child.kill("SIGINT");
    const { code } = await run.exited;
    const stderr = run.stderr();
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("SIGINT received: no other spec starts");

    const results = JSON.parse(run.stdout()) as SpecResult[];
    expect(results).toHaveLength(SPECS);
    const published = results.filter((result) => result.status === "published");
    const notStarted = results.filter((result) => result.status === "skipped");
    // A spec under way past the stop's grace (a loaded machine) is cancelled rather than published.
    const cancelled = results.filter((result) => result.status === "cancelled");
    // The first spec started first: GitBook's refusal of it is in the report.
    expect(results.filter((result) => result.status === "failed")).toMatchObject([
      { slug: "sigint-api-01", errorCode: "PARSE_ERROR" },
    ]);
    expect(published.length).toBeGreaterThan(0);
    expect(notStarted.length).toBeGreaterThan(0);
    expect(published.length + cancelled.length + notStarted.length).toBe(SPECS - 1);
    for (const result of notStarted) expect(result.errors).toEqual(["Not started: interrupted by SIGINT"]);
    // What was not started was never sent: GitBook holds the specs that ended, and nothing not started.
    const held = emulator
      .listSpecs(ORG)
      .filter((spec) => spec.slug.startsWith("sigint-"))
      .map((spec) => spec.slug);
    for (const result of notStarted) expect(held).not.toContain(result.slug);
    for (const result of [...published, ...results.filter((r) => r.status === "failed")])
      expect(held).toContain(result.slug);

    const lines = stderr.trimEnd().split("\n");
    for (const result of notStarted) expect(lines).toContain(`⏭️ skipped  ${result.file} → ${result.slug}`);
    expect(lines).toContain(
      `- api-01.yaml (sigint-api-01): failed, PARSE_ERROR: INJECTED_FAULT: GitBook's parser refused the document of "sigint-api-01" (the emulator's refusedSlugs).`,
    );
    const counts = [
      `${published.length} published`,
      "1 failed",
      ...(cancelled.length > 0 ? [`${cancelled.length} cancelled`] : []),
      `${notStarted.length} not started`,
    ];
    expect(lines.at(-1)).toBe(`gitbook-openapi: interrupted by SIGINT: ${counts.join(", ")}.`);
    expect(stderr).not.toContain("Timings:");
  });

  it("SIGTERM: the same, exit 143", async () => {
    const run = startSync("sigterm");
    await run.waitFor(FIRST_PUBLISHED);
    run.child.kill("SIGTERM");
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(143);
    expect(run.stderr().trimEnd().split("\n").at(-1)).toMatch(
      /^gitbook-openapi: interrupted by SIGTERM: \d+ published(?:, \d+ cancelled)?, \d+ not started\.$/,
    );
  });

  it("a second signal exits at once, even while an upload is held without an answer", async () => {
    // The first spec's upload is never answered: the run cannot end on its own after the first signal.
    emulator.script({
      method: "PUT",
      path: "/v1/orgs/demo-org/openapi/held-api-01",
      fault: { delayMs: Infinity },
    });
    const run = startSync("held", 4);
    await run.waitFor(FIRST_PUBLISHED);
    run.child.kill("SIGINT");
    await run.waitFor(/SIGINT received: no other spec starts/);
    expect(run.child.exitCode).toBe(null);
    run.child.kill("SIGINT");
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(130);
    expect(run.stderr()).toContain("SIGINT received again: exiting now.");
    expect(run.stdout()).toBe("");
  });

  it("in a merge request: the note records the preview published before the signal (SIGTERM, exit 143)", async () => {
    const gitlab = await startFakeGitLab();
    try {
      // The second spec's upload is held: the run is busy when the signal comes.
      emulator.script({
        method: "PUT",
        path: `/v1/orgs/${ORG}/openapi/api-02-mr-9`,
        fault: { delayMs: Infinity },
      });
      const run = startCli(["sync", "--workspace", workspace, "--concurrency", "2", "--json"], {
        GITLAB_CI: "true",
        CI_API_V4_URL: gitlab.apiUrl,
        CI_PROJECT_ID: "77",
        CI_PROJECT_PATH: "acme/api",
        CI_PROJECT_NAME: "api",
        CI_PROJECT_DIR: workspace,
        CI_PIPELINE_SOURCE: "merge_request_event",
        CI_MERGE_REQUEST_IID: "9",
        GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
      });
      await run.waitFor(/api-01\.yaml → api-01-mr-9: published$/m);
      while (!emulator.requests.some((r) => r.method === "PUT" && r.path.endsWith("/api-02-mr-9")))
        await new Promise((resolve) => setTimeout(resolve, 5));
      run.child.kill("SIGTERM");
      const { code } = await run.exited;
      expect(code, run.stderr()).toBe(143);
      const results = JSON.parse(run.stdout()) as SpecResult[];
      expect(results.find((result) => result.slug === "api-02-mr-9")?.status).toBe("cancelled");
      const published = results
        .filter((result) => result.status === "published")
        .map((result) => result.slug);
      expect(published).toContain("api-01-mr-9");

      const ours = gitlab.notes(9).filter((note) => note.author.id === FAKE_GITLAB_BOT.id);
      expect(ours).toHaveLength(1);
      expect(ours[0]?.body).toContain("🛑 Interrupted by SIGTERM (preview for !9)");
      const recorded = readCommentState(ours[0]?.body ?? "")?.previews ?? [];
      for (const slug of [...published, "api-02-mr-9"]) expect(recorded).toContain(slug);
      expect(run.stderr().trimEnd().split("\n").at(-1)).toMatch(
        // How many specs the free slot got through before the signal depends on the machine's speed.
        /^gitbook-openapi: interrupted by SIGTERM: \d+ published, 1 cancelled(?:, \d+ not started)?\.$/,
      );
    } finally {
      await gitlab.close();
    }
  });

  it("a stop while the organization's first listing hangs: nothing starts, exit 130 after the grace", async () => {
    const before = emulator.requests.length;
    emulator.script({ method: "GET", path: `/v1/orgs/${ORG}/openapi`, fault: { delayMs: Infinity } });
    const run = startSync("listing");
    const listing = () =>
      emulator.requests.slice(before).some((r) => r.method === "GET" && r.path === `/v1/orgs/${ORG}/openapi`);
    while (!listing()) await new Promise((resolve) => setTimeout(resolve, 5));
    run.child.kill("SIGINT");
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(130);
    const results = JSON.parse(run.stdout()) as SpecResult[];
    expect(results).toHaveLength(SPECS);
    for (const result of results) {
      expect(result.status).toBe("skipped");
      expect(result.errors).toEqual(["Not uploaded: interrupted by SIGINT"]);
    }
    expect(run.stderr().trimEnd().split("\n").at(-1)).toBe(
      `gitbook-openapi: interrupted by SIGINT: ${SPECS} not started.`,
    );
  });

  it("has its exit codes in --help", async () => {
    const help = await runCli(["sync", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}130 {2}interrupted \(SIGINT, Ctrl-C\)/m);
    expect(help.stdout).toMatch(/^ {2}143 {2}the same, stopped by SIGTERM$/m);
  });

  it("prunes nothing once stopped (in process, the signal given through CliIo)", async () => {
    git(workspace, "init", "-q");
    git(workspace, "remote", "add", "origin", "https://github.com/acme/signals.git");
    const env = {
      PATH: process.env.PATH ?? "",
      NO_COLOR: "1",
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: ORG,
    };
    const args = ["sync", "--workspace", workspace, "--slug-prefix", "keep", "--concurrency", "1"];
    const io = (onStderr: (text: string) => void, signals?: SignalSource) => ({
      env,
      cwd: workspace,
      stdout: { write: () => true },
      stderr: { write: (text: string) => onStderr(text) },
      timing: { polling: QUICK_POLLING },
      ...(signals ? { signals } : {}),
    });
    expect(
      await runInProcess(
        args,
        io(() => {}),
      ),
    ).toBe(0);
    const removed = "api-20.yaml";
    await rm(path.join(workspace, removed));

    let handler: ((signal: StopSignal) => void) | undefined;
    const exits: number[] = [];
    const signals: SignalSource = {
      listen(given) {
        handler = given;
        return () => {
          handler = undefined;
        };
      },
      exit: (code) => exits.push(code),
    };
    let stderr = "";
    const code = await runInProcess(
      [...args, "--prune", "--force"],
      io((text) => {
        stderr += text;
        if (FIRST_PUBLISHED.test(stderr) && !stderr.includes("SIGINT received")) handler?.("SIGINT");
      }, signals),
    );
    expect(code, stderr).toBe(130);
    expect(exits).toEqual([]);
    expect(handler).toBeUndefined();
    // The spec whose file is gone would be pruned by a run that went through; a stopped run does no more.
    expect(emulator.getSpec(ORG, "keep-api-20")).toBeDefined();
    expect(stderr).not.toMatch(/prun/i);
    expect(stderr).toMatch(/^gitbook-openapi: interrupted by SIGINT: \d+ published, \d+ not started\.$/m);
  });

  it("with --quiet, says that it stops, then prints the final line only", async () => {
    let handler: ((signal: StopSignal) => void) | undefined;
    const signals: SignalSource = {
      listen(given) {
        handler = given;
        return () => {};
      },
      exit: () => {},
    };
    let stderr = "";
    let stdout = "";
    const running = runInProcess(
      ["sync", "--workspace", workspace, "--slug-prefix", "quiet", "--concurrency", "1", "--quiet"],
      {
        env: {
          NO_COLOR: "1",
          GITBOOK_TOKEN: TOKEN,
          GITBOOK_API_URL: emulator.baseUrl,
          GITBOOK_ORGANIZATION: ORG,
        },
        cwd: workspace,
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        signals,
      },
    );
    // --quiet logs nothing while specs publish: the signal goes once GitBook has answered an upload.
    const uploaded = () =>
      emulator.requests.some((r) => r.method === "PUT" && r.status === 201 && r.path.includes("/quiet-"));
    while (!uploaded()) await new Promise((resolve) => setTimeout(resolve, 5));
    handler?.("SIGINT");
    expect(await running).toBe(130);
    expect(stdout).toBe("");
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warning: SIGINT received: no other spec starts/);
    expect(lines[1]).toMatch(/^gitbook-openapi: interrupted by SIGINT: \d+ published, \d+ not started\.$/);
  });
});
