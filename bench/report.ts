/**
 * What a benchmark prints for the README's table (scripts/bench-report.ts): one line per row,
 * `BENCH {json}`, each row a median beside its baseline measured in the same run, with the peak RSS of
 * the process measured. The row's `name` is the key of its target in scripts/bench-report.ts.
 */
import { ACTION_BUNDLE, ACTION_SOURCES } from "../harness/runner/action-runner.ts";

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
