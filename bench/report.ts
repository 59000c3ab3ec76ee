/**
 * What a benchmark prints for the README's table (scripts/bench-report.ts): one line per row,
 * `BENCH {json}`, each row a median beside its baseline measured in the same run, with the peak RSS of
 * the process measured. The row's `name` is the key of its target in scripts/bench-report.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACTION_BUNDLE, ACTION_SOURCES } from "../harness/runner/action-runner.ts";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchRow {
  name: string;
  median_ms: number;
  /** What the row is compared with: another program, or a computed ideal. */
  baseline_name: string;
  baseline_ms: number;
  /** Peak RSS of the measured process (the largest over the runs), MiB; null when not measured. */
  peak_rss_mib: number | null;
}

export const BENCH_PREFIX = "BENCH ";

/** Prints the row as one `BENCH` line, its ratio (median ÷ baseline) added. */
export function reportRow(row: BenchRow): void {
  const ratio = row.baseline_ms > 0 ? row.median_ms / row.baseline_ms : null;
  const rounded = {
    name: row.name,
    median_ms: Math.round(row.median_ms),
    baseline_name: row.baseline_name,
    baseline_ms: Math.round(row.baseline_ms),
    ratio: ratio === null ? null : Number(ratio.toFixed(2)),
    peak_rss_mib: row.peak_rss_mib === null ? null : Math.round(row.peak_rss_mib),
  };
  console.log(`${BENCH_PREFIX}${JSON.stringify(rounded)}`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** `--quick` (passed on by `npm run bench -- --quick`): fewer runs and rows, for a quick look. */
export const quick = process.argv.includes("--quick");

/** The benchmark's first argument that is a number (runs or rounds), else `fallback`. */
export function runsArgument(fallback: number): number {
  const given = process.argv.slice(2).find((arg) => /^\d+$/.test(arg));
  return Math.max(1, Number(given ?? fallback));
}

/**
 * A `--import` module that prints the process's peak RSS on stderr as it exits, for a measured child
 * process: {@link peakRssMib} reads it back.
 */
export const MAX_RSS_HOOK = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\nmaxrss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

export function peakRssMib(stderr: string): number | null {
  const kb = /maxrss-kb=(\d+)/.exec(stderr)?.[1];
  return kb === undefined ? null : Number(kb) / 1024;
}

/** The action's entry a benchmark runs: the bundle (`npm run build` first), or the sources with `BENCH_ENTRY=sources`. */
export const actionEntry = process.env.BENCH_ENTRY === "sources" ? ACTION_SOURCES : ACTION_BUNDLE;

/** The peak RSS a process wrote with {@link MAX_RSS_HOOK}, in KiB (NaN when it wrote none). */
export function peakOf(stderr: string): number {
  const mib = peakRssMib(stderr);
  return mib === null ? Number.NaN : mib * 1024;
}

/**
 * The build the benchmarks run, as `npm run build` makes it from this checkout's sources, into
 * `.bench-tmp/bench-dist` (the committed `dist/` may be older than the sources); `--dist <folder>`
 * names another (e.g. `dist`). The folder, relative to the repository.
 */
export function benchBuild(args: readonly string[]): string {
  const given = args.flatMap((arg, i) => (arg === "--dist" ? [args[i + 1]] : []))[0];
  if (given) return path.relative(repositoryRoot, path.resolve(given));
  const out = path.join(".bench-tmp", "bench-dist");
  mkdirSync(path.join(repositoryRoot, ".bench-tmp"), { recursive: true });
  execFileSync(process.execPath, [path.join(repositoryRoot, "scripts/build.mjs"), "--outdir", out], {
    cwd: repositoryRoot,
    stdio: "ignore",
  });
  return out;
}

/** {@link reportRow} for a row measured in KiB with an optional baseline. */
export function printBenchLine(row: {
  name: string;
  medianMs: number;
  baseline?: { name: string; ms: number } | undefined;
  peakRssKb?: number | undefined;
}): void {
  const peak = row.peakRssKb === undefined || Number.isNaN(row.peakRssKb) ? null : row.peakRssKb / 1024;
  reportRow({
    name: row.name,
    median_ms: row.medianMs,
    baseline_name: row.baseline?.name ?? "",
    baseline_ms: row.baseline?.ms ?? 0,
    peak_rss_mib: peak,
  });
}
