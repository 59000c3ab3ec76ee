/**
 * `npm run bench`: runs every benchmark in this folder, one after the other, each in its own process
 * so they do not disturb each other. Pass a benchmark's name to run only that one:
 * `npm run bench -- sync`. `--quick` runs only the benchmarks of the README's table ({@link REPORTED}),
 * each with fewer runs; they print `BENCH` lines (bench/report.ts), which `npx node
 * scripts/bench-report.ts` turns into that table.
 * `unchanged-real` measures Swagger 2.0 specs only when folders of them are
 * named in `BENCH_REAL_SPECS` (see its header).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const all = [
  "read",
  "discovery",
  "bundle",
  "sync",
  "scale",
  "cold-start",
  "unchanged",
  "unchanged-real",
  "review",
  "overlay-patterns",
];
/** The benchmarks that print `BENCH` rows and take `--quick`. */
const REPORTED = new Set(["bundle", "sync", "scale", "unchanged", "cold-start", "review"]);
const quick = process.argv.includes("--quick");
const chosen = process.argv.slice(2).filter((name) => all.includes(name));
let failed = false;
const names = chosen.length > 0 ? chosen : all.filter((name) => !quick || REPORTED.has(name));
for (const name of names) {
  console.log(`\n## bench/${name}.ts\n`);
  const run = spawnSync(
    process.execPath,
    [path.join(here, `${name}.ts`), ...(quick && REPORTED.has(name) ? ["--quick"] : [])],
    { stdio: "inherit" },
  );
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
