/**
 * The API change review, first whole, then its comparison alone.
 *
 * Whole: what a user waits for, `gitbook-openapi diff --base <ref>` (the pull request's review: check and
 * compare every spec of the workspace against the ref's commit) on Stripe's 4 MB spec, its base the
 * release of `stripe-4mb` below and its head the one committed in test/fixtures/real-specs, by the build
 * of this checkout's sources (`--dist <folder>` for another); baseline in the same run, rows taken in
 * turn: checking the spec alone (`sync --mode check` of the same workspace, no review). Median wall time,
 * ratio, and each process's peak RSS (threads included; the largest of the runs), as a table and as
 * `BENCH {json}` lines. `--whole-only` stops there.
 *
 * Then the comparison (`compareApis` of `src/core/changes/`) on pairs of real releases of
 * public API descriptions, each measurement in its own child process, median of N runs of:
 *
 * 1. the pair: `compareApis(base, head)`, the comparison a pull request's review makes;
 * 2. the spec against itself: `compareApis(head, structuredClone(head))`, the least a comparison of
 *    this document can cost (every part walked, nothing different).
 *
 * Each child reads and parses the documents with the project's reader (`parseSource`), timed apart and
 * left out of the comparison's time, then compares once; a pair's child then places the changes found
 * as the review does (change-places.ts of this checkout: the head's file read again, the base's when a
 * change is gone from the head), timed apart as "Placing". For each: the comparison's median wall time,
 * the ratio pair ÷ self, the child's peak RSS (`process.resourceUsage().maxRSS`, its own: one comparison
 * a process; the largest of the runs) and what it held after parsing alone, the number of breaking and
 * other changes, and the spec's size. Then a growth table: time and peak RSS against the spec's size,
 * per MB, across the pairs. A child gets `--max-old-space-size` (default 4096 MB) and a time limit
 * (default 120 s); one that runs out of either, or crashes, is reported "did not finish: <why>" and not
 * run again for that pair.
 *
 * The specs: `bench/review-material.ts` (its header lists them with their licences), pairs of commits
 * of Stripe (4 MB YAML), GitHub (11 and 13 MB JSON, from npm `@octokit/openapi`), Twilio, DigitalOcean
 * (split, bundled with our bundler), Kubernetes, Argo Workflows and Docker (Swagger 2.0), OpenAI and
 * Lichess (OpenAPI 3.1, Lichess split), read from bare clones under `/work/.mirror` (`--mirrors`) into a
 * cache in the temporary folder (`--cache`); a missing repository is skipped with a message.
 *
 * `--engine <file>` measures another module exporting `compareApis` (e.g. an older `src/core/changes/index.ts`
 * extracted with `git archive <commit> src` into `.bench-tmp/`), default this checkout's.
 *
 * Run with `npx node bench/review.ts [runs] [pair id…] [--engine <file>] [--timeout <s>] [--heap <MB>]
 * [--mirrors <folder>] [--cache <folder>] [--dist <folder>] [--whole-only]` (default 3 runs, every pair).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ApiChanges } from "../src/core/changes/index.ts";
import { parseSource } from "../src/core/documents/source-text.ts";
import {
  benchBuild,
  MAX_RSS_HOOK,
  median as medianOf,
  peakOf,
  printBenchLine,
  quick,
  runsArgument,
} from "./report.ts";
import { gatherMaterial, type MaterialPair, megabytes, PAIRS } from "./review-material.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "..");
const DEFAULT_ENGINE = path.join(repositoryRoot, "src", "core", "changes", "index.ts");

type Mode = "pair" | "self";

/** What a child reports for one measurement. */
interface Measurement {
  parseMs: number;
  compareMs: number;
  /** Placing the pair's changes in the head's (and, for what it no longer has, the base's) text. */
  placeMs?: number;
  breaking: number;
  other: number;
  /** Changes past the engine's listing cap, counted and not listed. */
  omitted: number;
  /** Peak RSS after parsing (and cloning, for self), before comparing; then at the end. KiB. */
  parsedRssKb: number;
  peakRssKb: number;
}

type Outcome = { ok: true; value: Measurement } | { ok: false; why: string; afterMs: number };

const args = process.argv.slice(2);
const optionValue = (name: string) => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []))[0];

async function child(): Promise<void> {
  const [file, format, otherFile, mode, engine] = args.slice(1) as [string, string, string, Mode, string];
  const json = format === "json";
  const { compareApis } = (await import(pathToFileURL(engine).href)) as {
    compareApis: (before: unknown, after: unknown) => ApiChanges;
  };
  const headText = readFileSync(file, "utf8");
  const baseText = mode === "pair" ? readFileSync(otherFile, "utf8") : undefined;
  const parseStart = performance.now();
  const head = parseSource(headText, json);
  const base = baseText === undefined ? undefined : parseSource(baseText, json);
  const parseMs = performance.now() - parseStart;
  const before = base ?? head;
  const after = base === undefined ? structuredClone(head) : head;
  const parsedRssKb = process.resourceUsage().maxRSS;
  const start = performance.now();
  const changes = compareApis(before, after);
  const compareMs = performance.now() - start;
  const placeMs = mode === "pair" ? await placing(changes, file, otherFile) : undefined;
  const result: Measurement = {
    parseMs,
    compareMs,
    ...(placeMs === undefined ? {} : { placeMs }),
    breaking: changes.breaking.length,
    other: changes.other.length,
    omitted: changes.omitted ?? 0,
    parsedRssKb,
    peakRssKb: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

/**
 * How long the review takes to place the changes a pair's comparison found (change-places.ts, this
 * checkout's): the head read again from its file, the base only if some change is gone from the head.
 */
async function placing(changes: ApiChanges, headFile: string, baseFile: string): Promise<number> {
  const { placedChanges, readSpecSources } = await import("../src/core/change-review/change-places.ts");
  const { specChange } = await import("../src/core/change-review/change-review.ts");
  const sources = (file: string) => readSpecSources(path.dirname(file), path.basename(file));
  const listed = {
    against: "base commit" as const,
    breaking: changes.breaking.map(specChange),
    other: changes.other.map(specChange),
    allowed: [],
  };
  const start = performance.now();
  await placedChanges(listed, await sources(headFile), () => sources(baseFile));
  return performance.now() - start;
}

function measure(pair: MaterialPair, mode: Mode, engine: string, timeoutS: number, heapMb: number): Outcome {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${heapMb}`,
      fileURLToPath(import.meta.url),
      "--child",
      pair.headFile,
      pair.format,
      pair.baseFile,
      mode,
      engine,
    ],
    { encoding: "utf8", timeout: timeoutS * 1000, killSignal: "SIGKILL", maxBuffer: 64 << 20 },
  );
  const afterMs = performance.now() - started;
  const result = /^RESULT (.*)$/m.exec(run.stdout ?? "")?.[1];
  if (run.status === 0 && result) return { ok: true, value: JSON.parse(result) as Measurement };
  const stderr = run.stderr ?? "";
  let why: string;
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") why = `over its ${timeoutS} s`;
  else if (/heap out of memory|Reached heap limit|Allocation failed/.test(stderr))
    why = `out of memory (${heapMb} MB heap)`;
  else {
    const last = stderr.trim().split("\n").filter(Boolean).slice(-3).join(" ").slice(0, 200);
    why = `exit ${run.status ?? run.signal}: ${last}`;
  }
  return { ok: false, why, afterMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`);
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

interface Summary {
  ok: boolean;
  why?: string;
  afterMs?: number;
  runs: number;
  parseMs: number;
  compareMs: number;
  placeMs: number;
  parsedRssKb: number;
  peakRssKb: number;
  breaking: number;
  other: number;
  omitted: number;
}

function summarize(outcomes: Outcome[]): Summary {
  const done = outcomes.flatMap((o) => (o.ok ? [o.value] : []));
  const failed = outcomes.find((o) => !o.ok) as { why: string; afterMs: number } | undefined;
  if (done.length === 0) {
    return {
      ok: false,
      why: failed?.why ?? "not run",
      afterMs: failed?.afterMs ?? 0,
      runs: 0,
      parseMs: Number.NaN,
      compareMs: Number.NaN,
      placeMs: Number.NaN,
      parsedRssKb: Number.NaN,
      peakRssKb: Number.NaN,
      breaking: Number.NaN,
      other: Number.NaN,
      omitted: Number.NaN,
    };
  }
  return {
    ok: true,
    runs: done.length,
    parseMs: median(done.map((m) => m.parseMs)),
    compareMs: median(done.map((m) => m.compareMs)),
    placeMs: median(done.map((m) => m.placeMs ?? Number.NaN)),
    parsedRssKb: Math.max(...done.map((m) => m.parsedRssKb)),
    peakRssKb: Math.max(...done.map((m) => m.peakRssKb)),
    breaking: done[0]?.breaking ?? 0,
    other: done[0]?.other ?? 0,
    omitted: done[0]?.omitted ?? 0,
  };
}

/** Where the measured engine comes from, for the report. */
function engineLabel(engine: string): string {
  if (path.resolve(engine) !== DEFAULT_ENGINE) return engine;
  try {
    const last = execFileSync(
      "git",
      ["-C", repositoryRoot, "log", "-1", "--format=%h %s", "--", "src/core/changes"],
      {
        encoding: "utf8",
      },
    ).trim();
    const dirty = execFileSync(
      "git",
      ["-C", repositoryRoot, "status", "--porcelain", "--", "src/core/changes"],
      {
        encoding: "utf8",
      },
    ).trim();
    return `src/core/changes at ${last}${dirty ? " (with uncommitted changes)" : ""}`;
  } catch {
    return engine;
  }
}

/** The pair the whole review is measured on: its head is the Stripe spec committed in test/fixtures. */
const WHOLE_PAIR = "stripe-4mb";

interface Timed {
  ms: number;
  peakKb: number;
}

/** One run of the built CLI in `workspace`, timed from its spawn to its exit. */
function cliRun(cli: string, workspace: string, command: string[]): Timed {
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--import", MAX_RSS_HOOK, cli, ...command], {
    cwd: workspace,
    // Nothing of this shell's GitBook settings: both rows run offline.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? workspace },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - started;
  if (run.status !== 0)
    throw new Error(`${command.join(" ")} exited ${run.status}: ${(run.stderr ?? "").slice(-500)}`);
  return { ms, peakKb: peakOf(run.stderr ?? "") };
}

/** The whole review against checking the spec alone, rows in turn; prints its table and BENCH lines. */
function wholeReview(pair: MaterialPair, runs: number): void {
  const cli = path.join(repositoryRoot, benchBuild(args), "cli.js");
  const workspace = mkdtempSync(path.join(tmpdir(), "bench-review-"));
  try {
    const file = path.join(workspace, "api", `spec3.${pair.format}`);
    const git = (...command: string[]) =>
      execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...command], {
        cwd: workspace,
      });
    git("init", "-q");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, readFileSync(pair.baseFile));
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    writeFileSync(file, readFileSync(pair.headFile));
    git("commit", "-q", "-am", "head");
    const review: Timed[] = [];
    const check: Timed[] = [];
    for (let i = 0; i < runs; i++) {
      review.push(cliRun(cli, workspace, ["diff", "--base", "HEAD~1", "--json"]));
      check.push(cliRun(cli, workspace, ["sync", "--mode", "check"]));
    }
    const reviewMs = medianOf(review.map((r) => r.ms));
    const checkMs = medianOf(check.map((r) => r.ms));
    const peak = (rows: Timed[]) => Math.max(...rows.map((r) => r.peakKb));
    console.log(
      `\n### The whole review: ${pair.id} (${megabytes(pair.baseBytes)} → ${megabytes(pair.headBytes)}), the built CLI, median of ${runs}\n`,
    );
    console.log("| Run | Wall time | vs checking alone | Peak RSS |");
    console.log("| --- | ---: | ---: | ---: |");
    console.log(
      `| \`diff --base HEAD~1\` (check + review) | ${seconds(reviewMs)} | ${(reviewMs / checkMs).toFixed(2)}× | ${mib(peak(review))} |`,
    );
    console.log(`| \`sync --mode check\` (the spec alone) | ${seconds(checkMs)} | 1 | ${mib(peak(check))} |`);
    console.log(
      `\nTargets: at most 2 s: ${seconds(reviewMs)} → ${reviewMs <= 2000 ? "met" : "NOT met"}; at most 300 MiB: ${mib(peak(review))} → ${peak(review) <= 300 * 1024 ? "met" : "NOT met"}\n`,
    );
    const baseline = { name: "checking the spec alone (sync --mode check)", ms: checkMs };
    printBenchLine({
      name: `review-${pair.id}`,
      medianMs: reviewMs,
      baseline,
      peakRssKb: peak(review),
    });
    printBenchLine({
      name: `review-${pair.id}-check-alone`,
      medianMs: checkMs,
      peakRssKb: peak(check),
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const runs = runsArgument(quick ? 1 : 3);
  const engine = path.resolve(optionValue("--engine") ?? DEFAULT_ENGINE);
  const timeoutS = Number(optionValue("--timeout") ?? 120);
  const heapMb = Number(optionValue("--heap") ?? 4096);
  const mirrors = optionValue("--mirrors");
  const cache = optionValue("--cache");
  const ids = new Set(PAIRS.map((p) => p.id));
  const only = args.filter((arg) => ids.has(arg));
  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  const whole = await gatherMaterial({
    ...(mirrors ? { mirrors } : {}),
    ...(cache ? { cache } : {}),
    only: [WHOLE_PAIR],
  });
  const wholePair = whole.pairs.find((pair) => pair.id === WHOLE_PAIR);
  if (wholePair) wholeReview(wholePair, runs);
  else
    console.log(`\nThe whole review was not measured: the material of ${WHOLE_PAIR} is missing (see above).`);
  if (args.includes("--whole-only") || quick) return;
  const manifest = await gatherMaterial({
    ...(mirrors ? { mirrors } : {}),
    ...(cache ? { cache } : {}),
    only,
  });

  const rows: { pair: MaterialPair; self: Summary; diff: Summary }[] = [];
  for (const pair of manifest.pairs) {
    const outcomes: Record<Mode, Outcome[]> = { pair: [], self: [] };
    for (let i = 0; i < runs; i++) {
      for (const mode of ["pair", "self"] as const) {
        if (outcomes[mode].some((o) => !o.ok)) continue; // one that could not finish is not run again
        outcomes[mode].push(measure(pair, mode, engine, timeoutS, heapMb));
      }
    }
    const row = { pair, diff: summarize(outcomes.pair), self: summarize(outcomes.self) };
    rows.push(row);
    process.stderr.write(
      `${pair.id}: pair ${row.diff.ok ? seconds(row.diff.compareMs) : row.diff.why}, self ${row.self.ok ? seconds(row.self.compareMs) : row.self.why}\n`,
    );
  }

  const cell = (s: Summary, text: (s: Summary) => string) =>
    s.ok ? text(s) : `did not finish: ${s.why} (after ${seconds(s.afterMs ?? 0)})`;
  console.log(
    `\n### compareApis on real pairs: ${manifest.pairs.length} pairs, median of ${runs}, one child process a measurement (${heapMb} MB heap, ${timeoutS} s)\n`,
  );
  console.log(
    `Engine: ${engineLabel(engine)}. Node ${process.version}, ${cpus().length} CPUs; load average ${loadAtStart} at the start, ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} at the end (other work on the machine slows every figure).\n`,
  );
  console.log(
    "| Pair | Style | Base | Head | Parse (pair) | compareApis(base, head) | compareApis(head, head) | pair ÷ self | Placing (pair) | Peak RSS pair | Peak RSS self | After parse (pair) | Breaking | Other | Counted, not listed |",
  );
  console.log(
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const { pair, diff, self } of rows) {
    const ratio = diff.ok && self.ok ? `${(diff.compareMs / self.compareMs).toFixed(2)}×` : "";
    console.log(
      `| ${pair.id} | ${pair.style} | ${megabytes(pair.baseBytes)} | ${megabytes(pair.headBytes)} | ${diff.ok ? seconds(diff.parseMs) : ""} | ${cell(diff, (s) => seconds(s.compareMs))} | ${cell(self, (s) => seconds(s.compareMs))} | ${ratio} | ${diff.ok ? seconds(diff.placeMs) : ""} | ${diff.ok ? mib(diff.peakRssKb) : ""} | ${self.ok ? mib(self.peakRssKb) : ""} | ${diff.ok ? mib(diff.parsedRssKb) : ""} | ${diff.ok ? diff.breaking : ""} | ${diff.ok ? diff.other : ""} | ${diff.ok ? diff.omitted : ""} |`,
    );
  }

  console.log("\nGrowth against the spec's size (head side; sorted by size; per MB of spec text):\n");
  console.log(
    "| Pair | Head | Self time | Self ms / MB | Pair time | Pair ms / MB | Self peak RSS | RSS added by comparing (self) | MiB added / MB | Changes |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const sorted = [...rows].sort((a, b) => a.pair.headBytes - b.pair.headBytes);
  for (const { pair, diff, self } of sorted) {
    const mb = pair.headBytes / 1e6;
    const added = self.ok ? self.peakRssKb - self.parsedRssKb : Number.NaN;
    console.log(
      `| ${pair.id} | ${megabytes(pair.headBytes)} | ${cell(self, (s) => seconds(s.compareMs))} | ${self.ok ? (self.compareMs / mb).toFixed(0) : ""} | ${cell(diff, (s) => seconds(s.compareMs))} | ${diff.ok ? (diff.compareMs / mb).toFixed(0) : ""} | ${self.ok ? mib(self.peakRssKb) : ""} | ${self.ok ? mib(added) : ""} | ${self.ok ? (added / 1024 / mb).toFixed(0) : ""} | ${diff.ok ? diff.breaking + diff.other + diff.omitted : ""} |`,
    );
  }
  // Slope of log(time) against log(size): 1 is linear growth.
  const points = sorted
    .filter((r) => r.self.ok)
    .map((r) => [Math.log(r.pair.headBytes), Math.log(r.self.compareMs)]);
  if (points.length >= 3) {
    const mx = points.reduce((s, [x]) => s + (x ?? 0), 0) / points.length;
    const my = points.reduce((s, [, y]) => s + (y ?? 0), 0) / points.length;
    const slope =
      points.reduce((s, [x, y]) => s + ((x ?? 0) - mx) * ((y ?? 0) - my), 0) /
      points.reduce((s, [x]) => s + ((x ?? 0) - mx) ** 2, 0);
    console.log(
      `\nSelf time grows as size^${slope.toFixed(2)} across these specs (least squares on log–log; 1 is linear). Their shapes differ (Swagger 2.0 is converted first, split specs are bundled), so this is a trend, not a law.`,
    );
  }
  const unfinished = rows.filter((r) => !r.diff.ok || !r.self.ok);
  if (unfinished.length > 0) {
    console.log(
      `\n${unfinished.length} pair(s) did not finish: ${unfinished.map((r) => r.pair.id).join(", ")}.`,
    );
  }
}

if (args[0] === "--child") await child();
else await main();
