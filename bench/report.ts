/**
 * What the benchmarks share: the build they measure, how a process's peak memory is read, medians, and
 * the one line per row that tools read (`BENCH {json}`, from which the README's benchmark section is
 * regenerated).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A `--import` hook that writes the process's peak RSS (KiB, its threads included) to stderr at exit. */
export const MAX_RSS_HOOK = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

/** The peak RSS a process wrote with {@link MAX_RSS_HOOK}, in KiB. */
export function peakOf(stderr: string): number {
  return Number(/maxrss-kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
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

/** One row as tools read it. */
export interface BenchRow {
  name: string;
  medianMs: number;
  /** What the row is measured against in the same run; undefined when it has no baseline. */
  baseline?: { name: string; ms: number } | undefined;
  /** The largest peak RSS of the runs, in KiB; undefined when it is not the measured process's own. */
  peakRssKb?: number | undefined;
}

/** Prints `BENCH {name, median_ms, baseline_name, baseline_ms, ratio, peak_rss_mib}` for one row. */
export function printBenchLine(row: BenchRow): void {
  const round = (value: number, digits: number) => Number(value.toFixed(digits));
  const line = {
    name: row.name,
    median_ms: Math.round(row.medianMs),
    baseline_name: row.baseline?.name ?? null,
    baseline_ms: row.baseline ? Math.round(row.baseline.ms) : null,
    ratio: row.baseline ? round(row.medianMs / row.baseline.ms, 2) : null,
    peak_rss_mib:
      row.peakRssKb === undefined || Number.isNaN(row.peakRssKb) ? null : Math.round(row.peakRssKb / 1024),
  };
  console.log(`BENCH ${JSON.stringify(line)}`);
}
