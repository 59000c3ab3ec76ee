/**
 * The one-spec commands users wait on, with the OpenAPI validators generated at build time against a
 * build that compiles them at run time (issue 28): `validate` of one small spec and
 * `sync --mode check` of one small spec (a 3.0 document, no token, no network), each built CLI against
 * `node -e 0` in the same run. Rounds alternate between the processes, so that a busy machine slows
 * each alike; medians of wall time and of CPU time (user + system, steadier on a shared machine), ratios
 * to `node -e 0`, and the peak RSS (`/usr/bin/time -f "%M %U %S"`, the median of the runs). Prints the
 * size of each `dist/` too.
 *
 *   npx node bench/validators.ts [runs] [--before DIR] [--after DIR]
 *
 * `--after` defaults to a fresh build of the working tree (scripts/build.mjs) and `--before` to a build
 * of the same sources that compiles the validators at run time (`--validators-at-run-time`, as before
 * issue 28); pass `--before` the build of another commit to compare with it
 * (`node scripts/build.mjs --outdir DIR` from its checkout).
 * Every command's output is checked: a run that does not validate the spec is not timed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { before: { type: "string" }, after: { type: "string" } },
});
const runs = Number(positionals[0] ?? 11);
const scratch = mkdtempSync(path.join(tmpdir(), "gitbook-bench-validators-"));

function buildOf(sources: string, outdir: string, flags: string[] = []): string {
  execFileSync(process.execPath, [path.join(sources, "scripts", "build.mjs"), "--outdir", outdir, ...flags], {
    cwd: sources,
    stdio: "ignore",
  });
  return outdir;
}

const before = values.before ?? buildOf(root, path.join(scratch, "before"), ["--validators-at-run-time"]);
const after = values.after ?? buildOf(root, path.join(scratch, "after"));

const workspace = path.join(scratch, "workspace");
mkdirSync(path.join(workspace, "specs"), { recursive: true });
const spec = path.join(workspace, "specs", "pets.yaml");
writeFileSync(
  spec,
  `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets/{id}:
    get:
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
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: { type: string }
        name: { type: string }
`,
);

interface Process {
  name: string;
  args: string[];
  /** What its output must hold for the run to count. */
  expect?: RegExp;
}
const env = { ...process.env, NODE_DISABLE_COMPILE_CACHE: undefined, GITBOOK_TOKEN: "", CI: "" };
const processes: Process[] = [{ name: "node -e 0", args: ["-e", "0"] }];
for (const [label, dist] of [
  ["before", before],
  ["after", after],
] as const) {
  const cli = path.join(dist, "cli.js");
  processes.push(
    { name: `validate, ${label}`, args: [cli, "validate", spec], expect: /valid/i },
    {
      name: `sync --mode check, ${label}`,
      args: [cli, "sync", "--workspace", workspace, "--mode", "check", "--json"],
      expect: /"planned"/,
    },
  );
}

function once(proc: Process): { ms: number; cpuMs: number; rssMiB: number } {
  const start = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "%M %U %S", process.execPath, ...proc.args], {
    cwd: workspace,
    env,
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  const lines = run.stderr.trim().split("\n");
  const [rssKiB, user, system] = (lines.at(-1) ?? "").split(" ").map(Number) as [number, number, number];
  if (run.status !== 0 || (proc.expect && !proc.expect.test(run.stdout + lines.slice(0, -1).join("\n")))) {
    throw new Error(`${proc.name} failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  return { ms, cpuMs: (user + system) * 1000, rssMiB: rssKiB / 1024 };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

for (const proc of processes) once(proc); // warm-up: the compile cache, the page cache
const samples = new Map(
  processes.map((p) => [p.name, { ms: [] as number[], cpu: [] as number[], rss: [] as number[] }]),
);
for (let round = 0; round < runs; round++) {
  for (const proc of processes) {
    const { ms, cpuMs, rssMiB } = once(proc);
    samples.get(proc.name)?.ms.push(ms);
    samples.get(proc.name)?.cpu.push(cpuMs);
    samples.get(proc.name)?.rss.push(rssMiB);
  }
}

const size = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
const baseline = median(samples.get("node -e 0")?.ms ?? []);
const baselineCpu = median(samples.get("node -e 0")?.cpu ?? []);
console.log(
  `Median of ${runs} alternating rounds, ${new Date().toISOString()}, load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n`,
);
console.log("| Process | Wall | × `node -e 0` | vs before | CPU | × `node -e 0` | vs before | Peak RSS |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const proc of processes) {
  const { ms, cpu, rss } = samples.get(proc.name) ?? { ms: [], cpu: [], rss: [] };
  const counterpart = proc.name.endsWith(", after")
    ? samples.get(proc.name.replace(", after", ", before"))
    : undefined;
  const vs = (mine: number[], theirs: number[] | undefined) =>
    theirs ? `${(median(mine) / median(theirs)).toFixed(2)}×` : "";
  console.log(
    `| ${proc.name} | ${median(ms).toFixed(0)} ms | ${(median(ms) / baseline).toFixed(2)}× | ${vs(ms, counterpart?.ms)} | ${median(cpu).toFixed(0)} ms | ${(median(cpu) / baselineCpu).toFixed(2)}× | ${vs(cpu, counterpart?.cpu)} | ${median(rss).toFixed(0)} MiB |`,
  );
}
console.log(
  `\ndist/ before: ${(size(before) / 1e6).toFixed(2)} MB; after: ${(size(after) / 1e6).toFixed(2)} MB (${existsSync(after) ? after : ""})`,
);
