/**
 * Cold start and size of the build. Each row is a process spawned the way a user (or the runner) starts
 * it, timed from spawn to its first HTTP request reaching a loopback server (which answers 401 to
 * everything, so the run stops there) or, for `--version`, `--help` and the baseline, to its exit:
 *
 * - the baseline, `node -e ''`, measured in the same run, side by side: every row is also given as a
 *   ratio of it, and the CLI's rows are checked against issue 19's targets (`--version` and `--help`
 *   within 1.5× of it, `sync` within 2× to its first request);
 * - the CLI (`dist/cli.js`): `--version`, `--help`, `sync` (one spec in the workspace) and `specs list`;
 * - the action (`dist/index.js`, with the INPUT_* and GITHUB_* environment a runner gives) and its
 *   sources (`src/index.ts`, what the end-to-end tests run);
 * - one small spec checked offline, to exit (issue 28): `validate` and `sync --mode check` of a 3.0 spec
 *   of 40 lines, beside a second baseline, `redocly lint` of the same file (@redocly/cli, a
 *   devDependency; telemetry off), also measured in turn. Their targets: ≤ 3× `node -e ''` and ≤ 0.5×
 *   `redocly lint`.
 *
 * Rows are sampled in turn (one process of each row, then the next round), so a busy moment of the
 * machine falls on every row alike. Peak RSS and CPU time (user and system, to the exit; a figure a busy
 * machine disturbs less than the time on the clock) come from `process.resourceUsage()` at exit; the
 * hook that prints them is loaded by every row, the baseline too. The size of `dist/` (every file, as
 * shipped) is printed first.
 *
 * Run: `npx node bench/cold-start.ts [runs] [--dist DIR]` (default 21 runs per row, median shown;
 * `--dist` times another build of the same layout, e.g. one written to .scratch/ to compare bundlers, or
 * one built with `scripts/build.mjs --validators-at-run-time` to compare with ajv compiling at run time).
 * After the table, issue 28's rows as `BENCH` lines (bench/report.ts: `validate-small-vs-node`,
 * `validate-small-vs-redocly`, `check-small-vs-node`, `check-small-vs-redocly`, peak RSS the largest of
 * the runs), which scripts/bench-report.ts turns into the README's table. `--quick` (`npm run bench --
 * --quick`) times only the baselines and those rows, 7 runs.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startLocalServer } from "../harness/loopback/local-server.ts";
import { ACTION_SOURCES, inputVariables, repositoryRoot } from "../harness/runner/action-runner.ts";
import { quick, reportRow, runsArgument } from "./report.ts";

const { values } = parseArgs({
  allowPositionals: true,
  options: { dist: { type: "string", default: "dist" }, quick: { type: "boolean", default: false } },
});
const RUNS = runsArgument(quick ? 7 : 21);
const DIST = path.resolve(repositoryRoot, values.dist);
const CLI_BUNDLE = path.join(DIST, "cli.js");
const ACTION_BUNDLE = path.join(DIST, "index.js");
/** Issue 19's limits, as ratios of the baseline; issue 28's for one small spec checked offline. */
const TARGET = { light: 1.5, sync: 2, oneSpec: 3, oneSpecToRedocly: 0.5 };
const REDOCLY = path.join(repositoryRoot, "node_modules", "@redocly", "cli", "bin", "cli.js");
const DIST_LIMIT_MB = 2;
const EXIT_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss-kb="+u.maxRSS+" cpu-us="+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

interface Sample {
  ms: number;
  peakMiB: number;
  /** CPU time (user and system) of the whole process, to its exit: less sensitive to a busy machine. */
  cpuMs: number;
}

interface Row {
  name: string;
  /** The script the row runs; the row is skipped with a note when it does not exist. */
  file?: string;
  args: (apiUrl: string) => string[];
  env: (apiUrl: string) => Promise<Record<string, string>>;
  /** Until the first request or, for the baseline and the commands that print and exit, to the exit. */
  until: "first-request" | "exit";
  /** The most it may take, as a ratio of the baseline (issue 19). */
  target?: number;
  /** Compared with the `redocly lint` row too, and at most this ratio of it (issue 28). */
  toRedocly?: number;
  /** The name of its `BENCH` rows, `<bench>-vs-node` and `<bench>-vs-redocly` (scripts/bench-report.ts). */
  bench?: string;
  /** Timed with `--quick`. */
  quick?: true;
  samples: Sample[];
}

const workspace = mkdtempSync(path.join(tmpdir(), "bench-cold-start-"));
writeFileSync(
  path.join(workspace, "openapi.yaml"),
  "openapi: 3.1.0\ninfo:\n  title: Cold\n  version: 1.0.0\npaths: {}\n",
);
// One small spec that every checker here finds valid (redocly's recommended rules too), in its own
// folder, so that `sync --mode check` finds it alone.
const oneSpec = path.join(workspace, "one-spec");
mkdirSync(oneSpec);
writeFileSync(
  path.join(oneSpec, "pets.yaml"),
  `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
  license: { name: MIT, url: "https://opensource.org/licenses/MIT" }
servers:
  - url: https://api.pets.dev
security:
  - key: []
paths:
  /pets/{id}:
    get:
      summary: One pet
      operationId: getPet
      parameters:
        - name: id
          in: path
          required: true
          schema: { type: string }
      responses:
        "200":
          description: A pet
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pet" }
        "404":
          description: No such pet
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Key }
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: { type: string }
        name: { type: string }
`,
);
const eventFile = path.join(workspace, "..", `${path.basename(workspace)}-event.json`);
writeFileSync(eventFile, "{}");

const runnerEnv = async (apiUrl: string) => ({
  GITHUB_ACTIONS: "true",
  CI: "true",
  GITHUB_WORKSPACE: workspace,
  GITHUB_EVENT_NAME: "push",
  GITHUB_EVENT_PATH: eventFile,
  GITHUB_REPOSITORY: "acme/widgets",
  GITHUB_SHA: "a".repeat(40),
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_API_URL: "https://api.github.com",
  RUNNER_TEMP: tmpdir(),
  ...(await inputVariables(repositoryRoot, { token: "t", organization: "org", "api-url": apiUrl }, "")),
});
const cliEnv = async (apiUrl: string) => ({
  GITBOOK_TOKEN: "t",
  GITBOOK_ORGANIZATION: "org",
  GITBOOK_API_URL: apiUrl,
});
const shown = (file: string) => path.relative(repositoryRoot, file);

const ROWS: Row[] = (
  [
    {
      name: "`node -e ''` (baseline)",
      args: () => ["-e", ""],
      env: async () => ({}),
      until: "exit",
      quick: true,
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} --version\``,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "--version"],
      env: async () => ({}),
      until: "exit",
      target: TARGET.light,
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} --help\``,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "--help"],
      env: async () => ({}),
      until: "exit",
      target: TARGET.light,
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} sync\` (one spec)`,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "sync"],
      env: cliEnv,
      until: "first-request",
      target: TARGET.sync,
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} specs list\``,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "specs", "list"],
      env: cliEnv,
      until: "first-request",
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} validate\` (one small spec)`,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "validate", path.join(oneSpec, "pets.yaml")],
      env: async () => ({}),
      until: "exit",
      target: TARGET.oneSpec,
      toRedocly: TARGET.oneSpecToRedocly,
      bench: "validate-small",
      quick: true,
    },
    {
      name: `CLI \`${shown(CLI_BUNDLE)} sync --mode check\` (one small spec)`,
      file: CLI_BUNDLE,
      args: () => [CLI_BUNDLE, "sync", "--mode", "check", "--workspace", oneSpec],
      env: async () => ({}),
      until: "exit",
      target: TARGET.oneSpec,
      toRedocly: TARGET.oneSpecToRedocly,
      bench: "check-small",
      quick: true,
    },
    {
      name: "`redocly lint` (one small spec; baseline)",
      file: REDOCLY,
      args: () => [REDOCLY, "lint", path.join(oneSpec, "pets.yaml")],
      env: async () => ({ REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }),
      until: "exit",
      quick: true,
    },
    {
      name: `action, built (\`${shown(ACTION_BUNDLE)}\`)`,
      file: ACTION_BUNDLE,
      args: () => [ACTION_BUNDLE],
      env: runnerEnv,
      until: "first-request",
    },
    {
      name: `action, sources (\`${ACTION_SOURCES}\`)`,
      file: path.join(repositoryRoot, ACTION_SOURCES),
      args: () => [path.join(repositoryRoot, ACTION_SOURCES)],
      env: runnerEnv,
      until: "first-request",
    },
  ] satisfies Omit<Row, "samples">[]
).map((row) => ({ ...row, samples: [] }));

let onRequest: (() => void) | undefined;
const server = await startLocalServer((_request, response) => {
  onRequest?.();
  response
    .writeHead(401, { "content-type": "application/json" })
    .end(JSON.stringify({ error: { code: 401, message: "Unauthorized" } }));
});

/** One process: spawn → first request (or exit), and its peak RSS. */
async function sample(row: Row): Promise<Sample> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    ...(await row.env(server.url)),
  };
  const firstRequest = new Promise<number>((resolve) => {
    onRequest = () => resolve(performance.now());
  });
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", EXIT_HOOK, ...row.args(server.url)], {
    cwd: workspace,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ at: number; code: number | null }>((resolve) =>
    child.on("close", (code) => resolve({ at: performance.now(), code })),
  );
  const end =
    row.until === "exit" ? (await exited).at : await Promise.race([firstRequest, exited.then((e) => e.at)]);
  const exit = await exited;
  onRequest = undefined;
  if (row.until === "first-request" && end === exit.at) {
    throw new Error(`${row.name} exited without a request:\n${stderr}`);
  }
  if (row.until === "exit" && exit.code !== 0) {
    throw new Error(`${row.name} exited with ${exit.code}:\n${stderr}`);
  }
  const peakKb = Number(/maxrss-kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const cpuUs = Number(/cpu-us=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  return { ms: end - started, peakMiB: peakKb / 1024, cpuMs: cpuUs / 1000 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Every file under `dir`, with its size in bytes, sorted by path. */
function filesOf(dir: string): { file: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(dir, file), bytes: statSync(file).size };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

try {
  if (existsSync(DIST)) {
    const files = filesOf(DIST);
    const total = files.reduce((sum, { bytes }) => sum + bytes, 0);
    const largest = [...files].sort((a, b) => b.bytes - a.bytes).slice(0, 4);
    console.log(
      `${shown(DIST)}/: ${mb(total)} MB in ${files.length} files (limit ${DIST_LIMIT_MB} MB: ${total <= DIST_LIMIT_MB * 1e6 ? "met" : "NOT MET"}); largest: ${largest.map(({ file, bytes }) => `${file} ${mb(bytes)} MB`).join(", ")}\n`,
    );
  } else {
    console.log(`${shown(DIST)}/: not built\n`);
  }
  console.log(`Cold start, median of ${RUNS} runs, rows taken in turn (Node ${process.version})\n`);
  const present = ROWS.filter((row) => (!row.file || existsSync(row.file)) && (!quick || row.quick));
  for (const row of present) await sample(row); // warms the file system cache
  for (let i = 0; i < RUNS; i++) for (const row of present) row.samples.push(await sample(row));

  console.log(
    "| Process | Start → first request (or exit) | × the baseline | Target | CPU to exit (× the baseline) | Peak RSS |",
  );
  console.log("| --- | ---: | ---: | --- | ---: | ---: |");
  const [baseline] = ROWS;
  const redocly = ROWS.find((row) => row.file === REDOCLY && present.includes(row));
  const baselineMs = median(baseline?.samples.map((s) => s.ms) ?? []);
  const baselineCpu = median(baseline?.samples.map((s) => s.cpuMs) ?? []);
  const redoclyMs = redocly && median(redocly.samples.map((s) => s.ms));
  for (const row of ROWS) {
    if (quick && !row.quick) continue;
    if (!present.includes(row)) {
      console.log(`| ${row.name} | not built: skipped | | | | |`);
      continue;
    }
    const ms = median(row.samples.map((s) => s.ms));
    const ratio = ms / baselineMs;
    const until = row.until === "exit" ? " (to exit)" : "";
    const targets = [
      row.target === undefined ? "" : `≤ ${row.target}×: ${ratio <= row.target ? "met" : "NOT MET"}`,
      row.toRedocly === undefined || redoclyMs === undefined
        ? ""
        : `${(ms / redoclyMs).toFixed(2)}× \`redocly lint\`, ≤ ${row.toRedocly}×: ${ms / redoclyMs <= row.toRedocly ? "met" : "NOT MET"}`,
    ].filter(Boolean);
    const peak = median(row.samples.map((s) => s.peakMiB));
    const cpu = median(row.samples.map((s) => s.cpuMs));
    console.log(
      `| ${row.name} | ${ms.toFixed(0)} ms${until} | ${ratio.toFixed(2)}× | ${targets.join("; ")} | ${cpu.toFixed(0)} ms (${(cpu / baselineCpu).toFixed(2)}×) | ${peak.toFixed(0)} MiB |`,
    );
  }
  console.log();
  for (const row of present) {
    if (row.bench === undefined) continue;
    const ms = median(row.samples.map((s) => s.ms));
    const peak = Math.max(...row.samples.map((s) => s.peakMiB));
    const node = { name: "node -e ''", ms: baselineMs };
    const lint = { name: "redocly lint (@redocly/cli, recommended rules)", ms: redoclyMs };
    for (const [suffix, base] of [
      ["node", node],
      ["redocly", lint],
    ] as const) {
      if (base.ms === undefined) continue;
      reportRow({
        name: `${row.bench}-vs-${suffix}`,
        median_ms: ms,
        baseline_name: base.name,
        baseline_ms: base.ms,
        peak_rss_mib: peak,
      });
    }
  }
} finally {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(eventFile, { force: true });
}
