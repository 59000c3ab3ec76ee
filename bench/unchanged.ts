/**
 * Re-run benchmark (issue 28): 500 specs already published, nothing changed. The action (run as the
 * runner runs it, `cache-file` set) proves per spec that GitBook holds its text:
 *
 * - cold: no cache file (a fresh runner) — it reads each spec's last version, once;
 * - warm: the file the cold run wrote (as `actions/cache` restores it) — no content read where GitBook
 *   lists the version the file remembers.
 *
 * Emulator: 20 ms latency on every request, 150 ms more on each version content read (what GitBook
 * takes to serve a spec's document), uploads trusted. Each row against the ideal of the reads it needs:
 * the run's local work — the same warm re-run against an emulator without latency (start, discovery,
 * each file's digest, the results) — plus its requests at the run's concurrency: content reads ×
 * (latency + content delay) ÷ concurrency, and the listing before them.
 * Run with `npx node bench/unchanged.ts [runs] [--quick]` (default 3 runs, `--quick` 1);
 * `npm run build` first, or `BENCH_ENTRY=sources` to run the sources.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RunningEmulator, startEmulator } from "../harness/emulator/index.ts";
import { runActionLikeRunner } from "../harness/runner/action-runner.ts";
import { actionEntry, MAX_RSS_HOOK, median, peakRssMib, quick, reportRow, runsArgument } from "./report.ts";

const RUNS = runsArgument(quick ? 1 : 3);
const SPECS = 500;
const CONCURRENCY = 16;
const LATENCY_MS = 20;
const CONTENT_DELAY_MS = 150;
/** Requests made one after the other before any spec's: the listing (the organization is given by id). */
const SEQUENTIAL_REQUESTS = 1;
const env = { GITHUB_REPOSITORY: "acme/bench", GITHUB_SHA: "a".repeat(40) };

function writeWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-unchanged-"));
  for (let i = 0; i < SPECS; i++) {
    const folder = path.join(dir, "services", `s${String(i).padStart(3, "0")}`);
    mkdirSync(folder, { recursive: true });
    const paths = Array.from(
      { length: 20 },
      (_, op) =>
        `  /items${op}:\n    get:\n      operationId: op${i}x${op}\n      responses:\n        "200":\n          description: ok\n`,
    ).join("");
    writeFileSync(
      path.join(folder, "openapi.yaml"),
      `openapi: 3.1.0\ninfo:\n  title: S${i}\n  version: 1.0.0\npaths:\n${paths}`,
    );
  }
  return dir;
}

interface Sample {
  wallMs: number;
  contentReads: number;
  writes: number;
  peakMiB: number | null;
  ok: boolean;
}

async function rerun(api: RunningEmulator, workspace: string, cacheFile: string): Promise<Sample> {
  const before = api.requests.length;
  const started = performance.now();
  const run = await runActionLikeRunner({
    workspace,
    inputs: inputs(api, cacheFile),
    env,
    entry: actionEntry,
    nodeArgs: ["--import", MAX_RSS_HOOK],
  });
  const wallMs = performance.now() - started;
  const requests = api.requests.slice(before);
  const results = JSON.parse(run.outputs.results ?? "[]") as { status: string }[];
  return {
    wallMs,
    contentReads: requests.filter((r) => r.method === "GET" && r.path.endsWith("/content")).length,
    writes: requests.filter((r) => r.method !== "GET").length,
    peakMiB: peakRssMib(run.stderr),
    ok: run.exitCode === 0 && results.length === SPECS && results.every((r) => r.status === "unchanged"),
  };
}

function inputs(api: RunningEmulator, cacheFile: string): Record<string, string> {
  return {
    token: api.token,
    organization: "demo-org",
    "api-url": api.baseUrl,
    concurrency: String(CONCURRENCY),
    "cache-file": cacheFile,
  };
}

async function publishFirst(api: RunningEmulator, workspace: string, cacheFile: string): Promise<void> {
  const first = await runActionLikeRunner({
    workspace,
    inputs: inputs(api, cacheFile),
    env,
    entry: actionEntry,
  });
  if (first.exitCode !== 0) throw new Error(`the first publish failed:\n${first.stdout.slice(-2000)}`);
}

const idealMs = (localMs: number, contentReads: number) =>
  localMs + SEQUENTIAL_REQUESTS * LATENCY_MS + (contentReads * (LATENCY_MS + CONTENT_DELAY_MS)) / CONCURRENCY;

const workspace = writeWorkspace();
const scratch = mkdtempSync(path.join(tmpdir(), "bench-unchanged-cache-"));
const cacheFile = path.join(scratch, "gitbook-openapi.json");
const localCache = path.join(scratch, "local.json");
const processing = { pendingMs: 0, progressMs: 0, trustUploads: true };
const api = await startEmulator({
  processing,
  faults: { latencyMs: LATENCY_MS, content: { delayMs: CONTENT_DELAY_MS } },
});
// The floor: the same warm re-run, with nothing to wait for on the network.
const instant = await startEmulator({ processing });
try {
  await publishFirst(api, workspace, cacheFile);
  await publishFirst(instant, workspace, localCache);
  // An upload is not remembered: one re-run reads each version and writes the floor's cache.
  await rerun(instant, workspace, localCache);
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  const local: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    local.push((await rerun(instant, workspace, localCache)).wallMs);
    rmSync(cacheFile, { force: true });
    cold.push(await rerun(api, workspace, cacheFile));
    warm.push(await rerun(api, workspace, cacheFile));
  }
  const localMs = median(local);
  console.log(
    `No-change re-run of ${SPECS} published specs, concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency, ${CONTENT_DELAY_MS} ms more per content read, median of ${RUNS}\n`,
  );
  console.log(
    "| Re-run | Wall time | Content reads | Writes | Ideal of its reads | Ratio | Peak RSS | All unchanged |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  const rows = [
    ["cold (no cache file)", cold],
    ["warm (the cold run's cache file)", warm],
  ] as const;
  const summary: { label: string; wall: number; ideal: number; reads: number }[] = [];
  for (const [label, samples] of rows) {
    const wall = median(samples.map((s) => s.wallMs));
    const reads = median(samples.map((s) => s.contentReads));
    const ideal = idealMs(localMs, reads);
    const peaks = samples.map((s) => s.peakMiB).filter((p) => p !== null);
    const peak = peaks.length > 0 ? Math.max(...peaks) : null;
    summary.push({ label, wall, ideal, reads });
    console.log(
      `| ${label} | ${(wall / 1000).toFixed(2)} s | ${reads} | ${median(samples.map((s) => s.writes))} | ${(ideal / 1000).toFixed(2)} s | ${(wall / ideal).toFixed(2)}× | ${peak === null ? "" : `${peak.toFixed(0)} MiB`} | ${samples.every((s) => s.ok) ? "yes" : "NO"} |`,
    );
    reportRow({
      name: `rerun-${SPECS}-${label.startsWith("cold") ? "cold" : "warm"}`,
      median_ms: wall,
      baseline_name: `ideal: local work ${(localMs / 1000).toFixed(2)} s + ${reads} content reads at concurrency ${CONCURRENCY}`,
      baseline_ms: ideal,
      peak_rss_mib: peak,
    });
  }
  const [coldRow, warmRow] = summary;
  if (coldRow && warmRow) {
    reportRow({
      name: `rerun-${SPECS}-warm-vs-cold`,
      median_ms: warmRow.wall,
      baseline_name: "the cold re-run",
      baseline_ms: coldRow.wall,
      peak_rss_mib: null,
    });
    console.log(
      `\nThe local work alone (the warm re-run against an emulator without latency): ${(localMs / 1000).toFixed(2)} s, inside both rows.`,
    );
    console.log("\nTargets:");
    for (const row of summary) {
      console.log(
        `- ${row.label}: within 1.3× of the ideal of its reads: ${(row.wall / row.ideal).toFixed(2)}× → ${row.wall <= 1.3 * row.ideal ? "met" : "NOT met"}`,
      );
    }
    console.log(
      `- warm: no content read where GitBook lists the remembered version: ${warmRow.reads} reads → ${warmRow.reads === 0 ? "met" : "NOT met"}`,
    );
  }
} finally {
  await api.close();
  await instant.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
