/**
 * Sync benchmark: 100 specs published against the emulator with 20 ms added latency and 2 s
 * processing, by the built action (dist/index.js, run as the runner runs it) at concurrency 1, 4 and 16,
 * and, in the same run, by GitBook's CLI (`gitbook openapi publish`, one process per spec, uploading
 * only) as the baseline. A second table compares polling schedules in-process at concurrency 4.
 *
 * Run with `npx node bench/sync.ts [runs] [--quick] [--timeline] [--dist <folder>]` (default 3 runs per
 * row; the CLI row runs once per run; `--quick`: one run, concurrency 4 and 16 only, no CLI row nor
 * schedules). The action is the build of this checkout's sources (`bench/report.ts` `benchBuild`;
 * `--dist <folder>` measures another). `--timeline`: for each action run, where its time went (process
 * start, first and last upload, each listing, the last spec done, the last request, the exit), from the
 * emulator's request log and timestamps the action's process writes. Prints `BENCH` rows
 * (bench/report.ts) against the ideal.
 */

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../harness/emulator/index.ts";
import { publishAll } from "../harness/publish-all.ts";
import { ACTION_SOURCES, runActionLikeRunner } from "../harness/runner/action-runner.ts";
import { commandLineGit } from "../src/adapters/git/base-tree.ts";
import { GitBookClient } from "../src/adapters/gitbook/index.ts";
import { silentLogger } from "../src/core/logger.ts";
import { systemClock } from "../src/core/ports.ts";
import { DEFAULT_POLL_SCHEDULE, type PollSchedule } from "../src/core/publish/poll-schedule.ts";
import { limitConcurrency } from "../src/core/run/limit.ts";
import { benchBuild, MAX_RSS_HOOK, median, peakRssMib, quick, reportRow, runsArgument } from "./report.ts";

const args = process.argv.slice(2);
const ACTION_ENTRY =
  process.env.BENCH_ENTRY === "sources" ? ACTION_SOURCES : path.join(benchBuild(args), "index.js");
const TIMELINE = args.includes("--timeline");
const RUNS = runsArgument(quick ? 1 : 3);
const SPECS = 100;
const LATENCY_MS = 20;
const PROCESSING_MS = 2000;
const MIN_REQUESTS_PER_SPEC = 3; // PUT, the poll that sees `complete`, the version read
const CLI_PREFIX = path.join(tmpdir(), "gitbook-cli-bench");
const CLI = path.join(CLI_PREFIX, "node_modules", "@gitbook", "cli", "cli.js");

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const idealMs = (concurrency: number, processingMs = PROCESSING_MS) =>
  (MIN_REQUESTS_PER_SPEC * LATENCY_MS * SPECS) / concurrency + processingMs;

function writeWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-sync-"));
  for (let i = 0; i < SPECS; i++) {
    const folder = path.join(dir, "services", `service-${String(i).padStart(3, "0")}`);
    mkdirSync(folder, { recursive: true });
    const operations = Array.from(
      { length: 20 },
      (_, op) =>
        `  /items${op}:\n    get:\n      operationId: list${i}x${op}\n      responses:\n        "200":\n          description: ok\n`,
    ).join("");
    writeFileSync(
      path.join(folder, "openapi.yaml"),
      `openapi: 3.1.0\ninfo:\n  title: Service ${i}\n  version: 1.0.${i}\npaths:\n${operations}`,
    );
  }
  return dir;
}

async function withEmulator<T>(
  body: (api: Awaited<ReturnType<typeof startEmulator>>) => Promise<T>,
  processingMs = PROCESSING_MS,
): Promise<T> {
  const api = await startEmulator({
    processing: { pendingMs: processingMs / 2, progressMs: processingMs / 2 },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    return await body(api);
  } finally {
    await api.close();
  }
}

interface Row {
  wallMs: number;
  requestsPerSpec: number;
  peakRssMb: number;
  ok: boolean;
}

async function runAction(workspace: string, concurrency: number): Promise<Row> {
  return withEmulator(async (api) => {
    const started = performance.now();
    const startedAt = Date.now();
    const run = await runActionLikeRunner({
      entry: ACTION_ENTRY,
      workspace,
      inputs: {
        token: api.token,
        organization: "demo-org",
        "api-url": api.baseUrl,
        concurrency: String(concurrency),
      },
      env: { GITHUB_REPOSITORY: "acme/bench" },
      nodeArgs: ["--import", MAX_RSS_HOOK, ...(TIMELINE ? ["--import", TIMELINE_HOOK] : [])],
    });
    const wallMs = performance.now() - started;
    if (TIMELINE) printTimeline(concurrency, startedAt, Date.now(), api.requests, run.stderr);
    return {
      wallMs,
      requestsPerSpec: api.requests.length / SPECS,
      peakRssMb: peakRssMib(run.stderr) ?? Number.NaN,
      ok: run.exitCode === 0 && run.outputs.published === String(SPECS),
    };
  });
}

async function runInProcess(
  workspace: string,
  schedule: PollSchedule,
  concurrency: number,
  processingMs: number,
): Promise<Row> {
  const { discoverSpecs } = await import("../src/core/discovery/index.ts");
  const { prepareSpecs } = await import("../src/core/prepare/prepare.ts");
  const discovery = await discoverSpecs({ workspace, git: commandLineGit, logger: silentLogger });
  const prepared = await prepareSpecs(discovery, {
    workspace,
    slugMapping: new Map(),
    slugPrefix: undefined,
    repositoryName: "bench",
    sourceUrlFor: undefined,
    logger: silentLogger,
  });
  return withEmulator(async (api) => {
    const client = new GitBookClient({ token: api.token, baseUrl: api.baseUrl });
    const started = performance.now();
    const results = await publishAll(prepared, {
      orgId: "demo-org",
      service: limitConcurrency(client, concurrency),
      clock: systemClock,
      schedule,
      wait: true,
      deadline: Date.now() + 120_000,
      logger: silentLogger,
    });
    const wallMs = performance.now() - started;
    await client.close();
    return {
      wallMs,
      requestsPerSpec: api.requests.length / SPECS,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      ok: results.every((r) => r.status === "published"),
    };
  }, processingMs);
}

/**
 * Written into the action's process: when the process began (V8's time origin), when the hook ran
 * (module loading starts), when the run logged its timings (`runSync` ended), the last write to stdout,
 * and `beforeExit`/`exit`.
 */
const TIMELINE_HOOK = `data:text/javascript,${encodeURIComponent(
  [
    `const w=(k,t)=>process.stderr.write("\\ntl-"+k+"="+t+"\\n");`,
    `w("origin",performance.timeOrigin);w("hook",Date.now());`,
    `let last=0;const out=process.stdout.write.bind(process.stdout);`,
    `process.stdout.write=(c,...a)=>{last=Date.now();if(String(c).includes("Timings:"))w("timings",last);return out(c,...a)};`,
    `process.on("beforeExit",()=>w("beforeexit",Date.now()));`,
    `process.on("exit",()=>{w("laststdout",last);w("exit",Date.now())});`,
  ].join(""),
)}`;

type Requests = Awaited<ReturnType<typeof startEmulator>>["requests"];

/** The run's timeline, milliseconds from the bench's spawn of the action. */
function printTimeline(
  concurrency: number,
  spawnedAt: number,
  closedAt: number,
  requests: Requests,
  stderr: string,
) {
  const mark = (key: string) => Number(new RegExp(`tl-${key}=([\\d.]+)`).exec(stderr)?.[1] ?? Number.NaN);
  const at = (t: number | undefined) =>
    t === undefined || Number.isNaN(t) ? "—" : `${Math.round(t - spawnedAt)}`;
  const route = (r: Requests[number]) =>
    r.method === "PUT"
      ? "put"
      : /\/openapi$/.test(r.path)
        ? "list"
        : /\/versions\//.test(r.path)
          ? "version"
          : "get";
  const of = (kind: string) => requests.filter((r) => route(r) === kind);
  const puts = of("put");
  const lists = of("list");
  const versions = of("version");
  const gets = of("get");
  const lastPut = puts.at(-1);
  const lines = [
    `process origin ${at(mark("origin"))}, hook (modules start loading) ${at(mark("hook"))}`,
    `first request ${at(requests[0]?.at)} (${requests[0] ? route(requests[0]) : "none"}), first PUT ${at(puts[0]?.at)}, last PUT ${at(lastPut?.at)} → answered ${at(lastPut?.answeredAt)}; last spec complete ≈ ${at(lastPut ? lastPut.at + LATENCY_MS + PROCESSING_MS : undefined)}`,
    `listings (sent→answered): ${lists.map((r) => `${at(r.at)}→${at(r.answeredAt)}`).join(", ")}`,
    `own GETs ${gets.length}${gets.length ? ` (${at(gets[0]?.at)}…${at(gets.at(-1)?.at)})` : ""}; version reads ${versions.length} (${at(versions[0]?.at)}…${at(versions.at(-1)?.at)} → ${at(versions.at(-1)?.answeredAt)})`,
    `last request answered ${at(Math.max(...requests.map((r) => r.answeredAt ?? 0)))}, timings logged ${at(mark("timings"))}, last stdout ${at(mark("laststdout"))}, beforeExit ${at(mark("beforeexit"))}, exit ${at(mark("exit"))}, closed ${at(closedAt)}`,
  ];
  process.stderr.write(`timeline c=${concurrency} (ms from spawn)\n${lines.map((l) => `  ${l}\n`).join("")}`);
}

function ensureCli(): void {
  if (existsSync(CLI)) return;
  mkdirSync(CLI_PREFIX, { recursive: true });
  execFileSync(
    "npm",
    ["install", "--prefix", CLI_PREFIX, "--no-audit", "--no-fund", "--ignore-scripts", "@gitbook/cli"],
    {
      stdio: "ignore",
    },
  );
}

function runProcess(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
  });
}

/** The CLI uploads one spec per process and does not wait for processing. */
async function runCli(workspace: string): Promise<Row> {
  return withEmulator(async (api) => {
    const env = { ...process.env, GITBOOK_ENDPOINT: api.baseUrl, GITBOOK_TOKEN: api.token };
    const started = performance.now();
    let failures = 0;
    for (let i = 0; i < SPECS; i++) {
      const service = `service-${String(i).padStart(3, "0")}`;
      const file = path.join(workspace, "services", service, "openapi.yaml");
      const code = await runProcess(
        [CLI, "openapi", "publish", "--spec", `services-${service}`, "--organization", "demo-org", file],
        env,
      );
      if (code !== 0) failures++;
    }
    return {
      wallMs: performance.now() - started,
      requestsPerSpec: api.requests.length / SPECS,
      peakRssMb: Number.NaN,
      ok: failures === 0 && api.listSpecs("demo-org").length === SPECS,
    };
  });
}

async function measure(label: string, times: number, once: () => Promise<Row>) {
  const rows: Row[] = [];
  for (let i = 0; i < times; i++) rows.push(await once());
  process.stderr.write(`measured ${label}\n`);
  return {
    label,
    wallMs: median(rows.map((r) => r.wallMs)),
    requestsPerSpec: median(rows.map((r) => r.requestsPerSpec)),
    peakRssMb: Math.max(...rows.map((r) => r.peakRssMb)),
    ok: rows.every((r) => r.ok),
  };
}

const workspace = writeWorkspace();
try {
  if (!quick) ensureCli();
  const action = [];
  for (const concurrency of quick ? [4, 16] : [1, 4, 16]) {
    action.push({
      concurrency,
      ...(await measure(`action c=${concurrency}`, RUNS, () => runAction(workspace, concurrency))),
    });
  }
  const cli = quick
    ? {
        label: "gitbook CLI",
        wallMs: Number.NaN,
        requestsPerSpec: Number.NaN,
        peakRssMb: Number.NaN,
        ok: false,
      }
    : await measure("gitbook CLI", Math.min(RUNS, 1), () => runCli(workspace));

  console.log(
    `\n### Publishing ${SPECS} specs (${LATENCY_MS} ms latency, ${PROCESSING_MS / 1000} s processing), median of ${RUNS}\n`,
  );
  console.log(
    "| Publisher | Wall time | Ideal | Ratio to ideal | Requests/spec | Peak RSS | All confirmed |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of action) {
    const ideal = idealMs(row.concurrency);
    console.log(
      `| action, concurrency ${row.concurrency} | ${seconds(row.wallMs)} | ${seconds(ideal)} | ${(row.wallMs / ideal).toFixed(2)}× | ${row.requestsPerSpec.toFixed(2)} | ${row.peakRssMb.toFixed(0)} MB | ${row.ok ? "yes" : "NO"} |`,
    );
    reportRow({
      name: `publish-${SPECS}-c${row.concurrency}`,
      median_ms: row.wallMs,
      baseline_name: `ideal: ${MIN_REQUESTS_PER_SPEC} requests/spec × ${LATENCY_MS} ms ÷ ${row.concurrency} + ${PROCESSING_MS / 1000} s processing`,
      baseline_ms: ideal,
      peak_rss_mib: Number.isNaN(row.peakRssMb) ? null : row.peakRssMb,
    });
  }
  if (!quick)
    console.log(
      `| gitbook openapi publish (1 process/spec, upload only) | ${seconds(cli.wallMs)} | | | ${cli.requestsPerSpec.toFixed(2)} | | ${cli.ok ? "uploaded only" : "NO"} |`,
    );
  const c4 = action.find((r) => r.concurrency === 4);
  const c16 = action.find((r) => r.concurrency === 16);
  const speedup4 = cli.wallMs / (c4?.wallMs ?? Number.NaN);
  const speedup16 = cli.wallMs / (c16?.wallMs ?? Number.NaN);
  console.log("\nTargets:");
  console.log(
    `- within 1.3× of ideal at concurrency 4: ${((c4?.wallMs ?? 0) / idealMs(4)).toFixed(2)}× → ${(c4?.wallMs ?? 0) <= 1.3 * idealMs(4) ? "met" : "NOT met"}`,
  );
  console.log(
    `- within 1.3× of ideal at concurrency 16: ${((c16?.wallMs ?? 0) / idealMs(16)).toFixed(2)}× → ${(c16?.wallMs ?? 0) <= 1.3 * idealMs(16) ? "met" : "NOT met"}`,
  );
  for (const [label, speedup] of quick
    ? []
    : ([
        ["4", speedup4],
        ["16", speedup16],
      ] as const)) {
    console.log(
      `- ≥10× faster than the CLI's upload alone (concurrency ${label}): ${speedup.toFixed(1)}× → ${speedup >= 10 ? "met" : "NOT met"}`,
    );
  }

  const schedules: [string, PollSchedule][] = [
    ["default: 1 s, ×1.2, ±5 %", DEFAULT_POLL_SCHEDULE],
    ["1 s, ×1.25, ±5 %", { ...DEFAULT_POLL_SCHEDULE, growth: 1.25 }],
    ["1 s, ×1.5, ±20 %", { ...DEFAULT_POLL_SCHEDULE, growth: 1.5, jitter: 0.2 }],
    ["250 ms, ×1.5, ±20 %", { ...DEFAULT_POLL_SCHEDULE, firstDelayMs: 250, growth: 1.5, jitter: 0.2 }],
    ["500 ms, ×2, ±20 %", { ...DEFAULT_POLL_SCHEDULE, firstDelayMs: 500, growth: 2, jitter: 0.2 }],
  ];

  for (const processingMs of quick ? [] : [PROCESSING_MS, 3 * PROCESSING_MS]) {
    console.log(
      `\n### Polling schedules, in-process, concurrency 16, ${processingMs / 1000} s processing, median of ${RUNS}\n`,
    );
    console.log("| Schedule | Wall time | Ratio to ideal | Requests/spec |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const [label, schedule] of schedules) {
      const row = await measure(`schedule ${label}`, RUNS, () =>
        runInProcess(workspace, schedule, 16, processingMs),
      );
      console.log(
        `| ${label} | ${seconds(row.wallMs)} | ${(row.wallMs / idealMs(16, processingMs)).toFixed(2)}× | ${row.requestsPerSpec.toFixed(2)} |`,
      );
    }
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
