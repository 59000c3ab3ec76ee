/**
 * Peak memory of `gitbook-openapi sync` publishing 1,000 small specs (8 KiB of YAML each) to the
 * emulator over loopback, the command run from source as a process of its own, so that its peak RSS
 * (worker threads included: they live in the same process) is the command's alone. Written for issue 26,
 * to check that moving each spec's local steps into worker threads (src/core/prepare/prepare-worker.ts)
 * did not make memory per spec worse (issue 28 is about memory growth).
 *
 Run with `npx node bench/small-specs-memory.ts [runs] [cli…]`: each CLI given (a `main.ts` or a built
 * `cli.js`; this checkout's `src/hosts/cli/main.ts` by default). To compare with an earlier commit,
 * build both and give both:
 *
 *   mkdir -p /tmp/before/.scratch .scratch && git archive <commit> | tar -x -C /tmp/before \
 *     && ln -s "$PWD/node_modules" /tmp/before/node_modules \
 *     && (cd /tmp/before && npx node scripts/build.mjs --outdir .scratch/dist) \
 *     && npx node scripts/build.mjs --outdir .scratch/dist-after
 *   npx node bench/small-specs-memory.ts 3 /tmp/before/.scratch/dist/cli.js .scratch/dist-after/cli.js
 *
 * Prints each run's wall time and peak RSS (the commands interleaved, so a busy machine slows them
 * alike), then the medians.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../harness/emulator/index.ts";
import { completeOrganization } from "../harness/emulator/organizations.ts";

const SPECS = 1_000;
const runs = Math.max(1, Number(process.argv[2] ?? 3));
const here = fileURLToPath(new URL("../src/hosts/cli/main.ts", import.meta.url));
/** The commands compared: this checkout's sources by default. */
const clis = process.argv.length > 3 ? process.argv.slice(3) : [here];
const TOKEN = "bench-token";
const MAX_RSS_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss-kb="+u.maxRSS+" cpu-us="+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

function smallSpec(index: number): string {
  const paths: string[] = [];
  for (let op = 0; op < 24; op++) {
    paths.push(
      `  /things${index}/op${op}/{id}:\n    get:\n      operationId: get${index}x${op}\n      summary: Reads thing ${op}\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n      responses:\n        '200':\n          description: The thing\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Thing'}\n`,
    );
  }
  return `openapi: 3.0.3\ninfo:\n  title: API ${index}\n  version: 1.0.${index}\npaths:\n${paths.join("")}components:\n  schemas:\n    Thing:\n      type: object\n      properties:\n        id: {type: string}\n        name: {type: string}\n`;
}

const workspace = mkdtempSync(path.join(tmpdir(), "small-specs-"));
mkdirSync(path.join(workspace, "specs"));
for (let index = 0; index < SPECS; index++) {
  writeFileSync(
    path.join(workspace, "specs", `api-${String(index).padStart(4, "0")}.yaml`),
    smallSpec(index),
  );
}

const emulator = await startEmulator({
  token: TOKEN,
  // One organization per measured run: in one already holding the specs, they would be skipped unchanged.
  organizations: Array.from({ length: runs }, (_, run) => clis.map((_, cli) => `org-${cli}-${run}`))
    .flat()
    .map((id) => completeOrganization({ id })),
  processing: { pendingMs: 5, progressMs: 5, trustUploads: true },
});

interface Sample {
  ms: number;
  mib: number;
  /** CPU time, user and system, of every thread, in ms. */
  cpu: number;
}

/** One run of a CLI over the workspace, to a fresh organization: wall ms and peak RSS in MiB. */
function measure(cli: string, run: number, label: string): Promise<Sample> {
  const started = performance.now();
  // Not spawnSync: it would block the emulator's event loop.
  const child = spawn(process.execPath, ["--import", MAX_RSS_HOOK, cli, "sync", "--workspace", workspace], {
    env: {
      PATH: process.env.PATH ?? "",
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: `org-${label}-${run}`,
      GITBOOK_CONCURRENCY: "8",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("close", (status) => {
      if (status !== 0) reject(new Error(`${cli} exited ${status}: ${stderr.slice(-2000)}`));
      const kib = Number(/maxrss-kb=(\d+)/.exec(stderr)?.[1]);
      const cpu = Number(/cpu-us=(\d+)/.exec(stderr)?.[1]) / 1000;
      resolve({ ms: performance.now() - started, mib: kib / 1024, cpu });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const rows = new Map<string, { ms: number[]; mib: number[]; cpu: number[] }>();
try {
  for (let run = 0; run < runs; run++) {
    for (const [index, cli] of clis.entries()) {
      const sample = await measure(cli, run, String(index));
      const row = rows.get(cli) ?? { ms: [], mib: [], cpu: [] };
      row.ms.push(sample.ms);
      row.mib.push(sample.mib);
      row.cpu.push(sample.cpu);
      rows.set(cli, row);
      console.log(
        `run ${run + 1} ${cli}: ${(sample.ms / 1000).toFixed(1)} s (CPU ${(sample.cpu / 1000).toFixed(1)} s), peak RSS ${sample.mib.toFixed(0)} MiB`,
      );
    }
  }
  for (const [cli, row] of rows) {
    console.log(
      `median ${cli}: ${(median(row.ms) / 1000).toFixed(1)} s (CPU ${(median(row.cpu) / 1000).toFixed(1)} s), peak RSS ${median(row.mib).toFixed(0)} MiB`,
    );
  }
} finally {
  await emulator.close();
  rmSync(workspace, { recursive: true, force: true });
}
