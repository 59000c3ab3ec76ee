/**
 * `npm run bench`: runs every benchmark in this folder, one after the other, each in its own process
 * so they do not disturb each other. Pass a benchmark's name to run only that one:
 * `npm run bench -- sync`. `unchanged-real` measures Swagger 2.0 specs only when folders of them are
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
const chosen = process.argv.slice(2).filter((name) => all.includes(name));
let failed = false;
for (const name of chosen.length > 0 ? chosen : all) {
  console.log(`\n## bench/${name}.ts\n`);
  const run = spawnSync(process.execPath, [path.join(here, `${name}.ts`)], { stdio: "inherit" });
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
