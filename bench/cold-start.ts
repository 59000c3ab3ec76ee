/**
 * Cold start: from spawning the process to the first HTTP request that reaches a loopback server, for
 * the built action (`dist/index.js`, with the INPUT_* and GITHUB_* environment a runner gives, one spec
 * in the workspace), its sources (`src/index.ts`) and, once it is built, the CLI (`dist/cli.js specs
 * list`). The baseline, measured in the same run, is `node -e ''` from spawn to exit. The server answers
 * 401 to everything, so each run stops right after its first request. Peak RSS comes from
 * `process.resourceUsage()` at exit; the hook that prints it is loaded by every row, the baseline too.
 *
 * Run: `npx node bench/cold-start.ts [runs]` (default 15 runs per row, median shown).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLocalServer } from "../harness/loopback/local-server.ts";
import {
  ACTION_BUNDLE,
  ACTION_SOURCES,
  inputVariables,
  repositoryRoot,
} from "../harness/runner/action-runner.ts";

const RUNS = Math.max(1, Number(process.argv[2] ?? 15) || 15);
const TARGET_MS = 150;
const CLI_BUNDLE = "dist/cli.js";
const MAX_RSS_HOOK = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

interface Sample {
  ms: number;
  peakMiB: number;
}

interface Row {
  name: string;
  /** Relative to the repository; the row is skipped with a note when it does not exist. */
  file?: string;
  args: (apiUrl: string) => string[];
  env: (apiUrl: string) => Promise<Record<string, string>>;
  /** Until the first request (the default) or, for the baseline, until the process exits. */
  until: "first-request" | "exit";
}

const workspace = mkdtempSync(path.join(tmpdir(), "bench-cold-start-"));
writeFileSync(
  path.join(workspace, "openapi.yaml"),
  "openapi: 3.1.0\ninfo:\n  title: Cold\n  version: 1.0.0\npaths: {}\n",
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

const ROWS: Row[] = [
  { name: "`node -e ''` (baseline, to exit)", args: () => ["-e", ""], env: async () => ({}), until: "exit" },
  {
    name: `action, built (\`${ACTION_BUNDLE}\`)`,
    file: ACTION_BUNDLE,
    args: () => [path.join(repositoryRoot, ACTION_BUNDLE)],
    env: runnerEnv,
    until: "first-request",
  },
  {
    name: `action, sources (\`${ACTION_SOURCES}\`)`,
    file: ACTION_SOURCES,
    args: () => [path.join(repositoryRoot, ACTION_SOURCES)],
    env: runnerEnv,
    until: "first-request",
  },
  {
    name: `CLI, built (\`${CLI_BUNDLE} specs list\`)`,
    file: CLI_BUNDLE,
    args: () => [path.join(repositoryRoot, CLI_BUNDLE), "specs", "list"],
    env: async (apiUrl) => ({ GITBOOK_TOKEN: "t", GITBOOK_ORGANIZATION: "org", GITBOOK_API_URL: apiUrl }),
    until: "first-request",
  },
];

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
  const child = spawn(process.execPath, ["--import", MAX_RSS_HOOK, ...row.args(server.url)], {
    cwd: workspace,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number>((resolve) => child.on("close", () => resolve(performance.now())));
  const end = row.until === "exit" ? await exited : await Promise.race([firstRequest, exited]);
  await exited;
  onRequest = undefined;
  if (row.until === "first-request" && end === (await exited)) {
    throw new Error(`${row.name} exited without a request:\n${stderr}`);
  }
  const peakKb = Number(/maxrss-kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  return { ms: end - started, peakMiB: peakKb / 1024 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

try {
  console.log(
    `Cold start, median of ${RUNS} runs (Node ${process.version}; target for the action: < ${TARGET_MS} ms)\n`,
  );
  console.log("| Process | Start → first request | Over the baseline | Peak RSS |");
  console.log("| --- | ---: | ---: | ---: |");
  let baselineMs: number | undefined;
  for (const row of ROWS) {
    if (row.file && !existsSync(path.join(repositoryRoot, row.file))) {
      console.log(`| ${row.name} | not built: skipped | | |`);
      continue;
    }
    await sample(row); // warms the file system cache
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await sample(row));
    const ms = median(samples.map((s) => s.ms));
    baselineMs ??= ms;
    const over = row.until === "exit" ? "" : `+${(ms - baselineMs).toFixed(0)} ms`;
    const peak = median(samples.map((s) => s.peakMiB));
    console.log(`| ${row.name} | ${ms.toFixed(0)} ms | ${over} | ${peak.toFixed(0)} MiB |`);
  }
} finally {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(eventFile, { force: true });
}
