/**
 * Re-run benchmark: 100 specs already published, unchanged. The built action (run as the runner runs
 * it) reads what GitBook holds and uploads nothing; measured against the read-only ideal (the reads it
 * made × round trip ÷ concurrency) and, in the same run, against `force: true`, which uploads all 100
 * and waits for processing again. Emulator: 20 ms added latency, 2 s processing.
 * Run with `npx node bench/unchanged.ts [runs]` (default 3); `npm run build` first.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../harness/emulator/index.ts";
import { ACTION_BUNDLE, runActionLikeRunner } from "../harness/runner/action-runner.ts";

const RUNS = Math.max(1, Number(process.argv[2] ?? 3));
const SPECS = 100;
const LATENCY_MS = 20;
const PROCESSING_MS = 2_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

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

interface Row {
  wallMs: number;
  reads: number;
  writes: number;
  ok: boolean;
}

async function measure(concurrency: number, force: boolean): Promise<Row> {
  const workspace = writeWorkspace();
  const api = await startEmulator({
    processing: { pendingMs: PROCESSING_MS / 2, progressMs: PROCESSING_MS / 2 },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const inputs = {
      token: api.token,
      organization: "demo-org",
      "api-url": api.baseUrl,
      concurrency: String(concurrency),
      ...(force ? { force: "true" } : {}),
    };
    const env = { GITHUB_REPOSITORY: "acme/bench" };
    await runActionLikeRunner({ workspace, inputs, env, entry: ACTION_BUNDLE }); // the first publish
    const before = api.requests.length;
    const started = performance.now();
    const rerun = await runActionLikeRunner({ workspace, inputs, env, entry: ACTION_BUNDLE });
    const wallMs = performance.now() - started;
    const requests = api.requests.slice(before);
    const expected = force ? "published" : "unchanged";
    const results = JSON.parse(rerun.outputs.results ?? "[]") as { status: string }[];
    return {
      wallMs,
      reads: requests.filter((r) => r.method === "GET").length,
      writes: requests.filter((r) => r.method !== "GET").length,
      ok: rerun.exitCode === 0 && results.length === SPECS && results.every((r) => r.status === expected),
    };
  } finally {
    await api.close();
  }
}

console.log(
  `Re-run of ${SPECS} published specs, ${LATENCY_MS} ms latency, ${PROCESSING_MS / 1000} s processing, median of ${RUNS}\n`,
);
console.log("| Run | Wall time | Reads | Writes | Read-only ideal | Ratio | All as expected |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
const verdicts: string[] = [];
const localMs = median(await Promise.all([0].map(() => localOnly())));
for (const concurrency of [4, 16]) {
  for (const force of [false, true]) {
    const rows: Row[] = [];
    for (let i = 0; i < RUNS; i++) rows.push(await measure(concurrency, force));
    const wall = median(rows.map((r) => r.wallMs));
    const reads = median(rows.map((r) => r.reads));
    const writes = median(rows.map((r) => r.writes));
    const ideal = (reads * LATENCY_MS) / concurrency;
    const label = `${force ? "force: true (uploads)" : "unchanged (default)"}, concurrency ${concurrency}`;
    console.log(
      `| ${label} | ${(wall / 1000).toFixed(2)} s | ${reads} | ${writes} | ${force ? "" : `${(ideal / 1000).toFixed(2)} s`} | ${force ? "" : `${(wall / ideal).toFixed(2)}×`} | ${rows.every((r) => r.ok) ? "yes" : "NO"} |`,
    );
    if (!force) {
      const network = wall - localMs;
      verdicts.push(
        `- concurrency ${concurrency}: no write request ${writes === 0 ? "met" : "NOT met"}; within 1.3× of the read-only ideal: ${(wall / ideal).toFixed(2)}× for the whole run → ${wall <= 1.3 * ideal ? "met" : "NOT met"}; ${(network / ideal).toFixed(2)}× for its network part (the run less the local-only run) → ${network <= 1.3 * ideal ? "met" : "NOT met"}`,
      );
    }
  }
}
console.log(
  `\nThe same action with nothing to send (\`mode: check\`, no token: process start, discovery, reading and checking the 100 specs): ${(localMs / 1000).toFixed(2)} s, inside every row above.`,
);
console.log(`\nTargets:\n${verdicts.join("\n")}`);

/** The part of a run that is not network: the built action in check mode without a token. */
async function localOnly(): Promise<number> {
  const workspace = writeWorkspace();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await runActionLikeRunner({
      workspace,
      inputs: { mode: "check" },
      env: { GITHUB_REPOSITORY: "acme/bench" },
      entry: ACTION_BUNDLE,
    });
    times.push(performance.now() - started);
  }
  return median(times);
}
