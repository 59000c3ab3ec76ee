/**
 * Benchmark of discovery in default mode (no patterns) on a large git work tree, beside a naive
 * baseline: `git ls-files | grep | xargs grep -l`; then pattern mode's matching (the `PATTERNS` below)
 * beside `@actions/glob`, which it replaced, and `tinyglobby`, when they are still in node_modules.
 * Run: `npx node bench/discovery.ts [runs]`.
 *
 * The tree (100,000 files in 5,000 folders; 2,000 YAML/JSON files of which 200 are OpenAPI documents,
 * four of them several MB) is generated once under the system temp folder and reused.
 */

import { execFileSync, execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { commandLineGit } from "../src/adapters/git/base-tree.ts";
import { discoverSpecs } from "../src/core/discovery/index.ts";
import { matchPatternFiles, readPatternLines } from "../src/core/discovery/patterns.ts";
import { silentLogger } from "../src/core/logger.ts";

const ROOT = path.join(os.tmpdir(), "gitbook-openapi-bench-discovery-v1");
const DONE_MARKER = path.join(ROOT, ".git", "bench-complete");
const FOLDERS = 5_000;
const FILES_PER_FOLDER = 20;
const DATA_EVERY = 50; // 100,000 / 50 = 2,000 YAML/JSON files
const SPEC_EVERY = 10; // one data file in 10 is a spec: 200 specs
const LARGE_SPEC_MB = [13, 6, 4];
const LARGE_YAML_SPEC_MB = 1.5;
const RUNS = Math.max(5, Number(process.argv[2] ?? 7));
const TARGET_MS = 2_000;

function specDocument(name: string, operations: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i++) {
    paths[`/${name}/${i}/{id}`] = {
      get: {
        operationId: `get${name}${i}`,
        summary: `Get ${name} number ${i} by its identifier`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          "404": { description: "Not found" },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: `${name} API`, version: "1.0.0", description: `The ${name} service.` },
    paths,
    components: { schemas: { Thing: { type: "object", properties: { id: { type: "string" } } } } },
  };
}

/** About how many operations make `megabytes` of pretty-printed JSON. */
function operationsFor(megabytes: number): number {
  const one = JSON.stringify(specDocument("sizing", 1), null, 2).length;
  return Math.round((megabytes * 1_000_000) / one);
}

function dataFile(index: number, dataIndex: number): { name: string; text: string } {
  const json = dataIndex % 2 === 0;
  if (dataIndex % SPEC_EVERY === 0) {
    const specIndex = dataIndex / SPEC_EVERY;
    const largeJson = LARGE_SPEC_MB[specIndex];
    if (largeJson !== undefined) {
      return {
        name: `large-${specIndex}.json`,
        text: JSON.stringify(specDocument("big", operationsFor(largeJson)), null, 2),
      };
    }
    if (specIndex === LARGE_SPEC_MB.length) {
      return {
        name: "large.openapi.yaml",
        text: stringify(specDocument("bigyaml", operationsFor(LARGE_YAML_SPEC_MB))),
      };
    }
    const document = specDocument(`svc${index}`, 3 + (index % 25));
    return json
      ? { name: "openapi.json", text: JSON.stringify(document, null, 2) }
      : { name: "openapi.yaml", text: stringify(document) };
  }
  switch (dataIndex % 5) {
    case 1: // mentions openapi, not at the top level: parsed, then ruled out
      return {
        name: "tool.yaml",
        text: `tools:\n  openapi:\n    enabled: true\n    output: docs/${index}\n`,
      };
    case 2:
      return {
        name: "package.json",
        text: JSON.stringify({ name: `pkg-${index}`, version: "1.0.0", dependencies: {} }),
      };
    case 3:
      return {
        name: "deploy.yaml",
        text: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${index}\n`,
      };
    default:
      return {
        name: json ? "schema.json" : "values.yml",
        text: JSON.stringify({ type: "object", title: `T${index}` }),
      };
  }
}

function generate(): void {
  fs.rmSync(ROOT, { recursive: true, force: true });
  fs.mkdirSync(ROOT, { recursive: true });
  console.log(`Generating ${FOLDERS * FILES_PER_FOLDER} files in ${ROOT} …`);
  let dataIndex = 0;
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = path.join(ROOT, `group-${Math.floor(folder / 100)}`, `module-${folder % 100}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const index = folder * FILES_PER_FOLDER + file;
      if (index % DATA_EVERY === 0) {
        const { name, text } = dataFile(index, dataIndex++);
        fs.writeFileSync(path.join(dir, name), text);
      } else {
        fs.writeFileSync(path.join(dir, `file-${file}.ts`), `export const value${index} = ${index};\n`);
      }
    }
  }
  const identity = [
    "-c",
    "user.name=Bench",
    "-c",
    "user.email=bench@example.com",
    "-c",
    "commit.gpgsign=false",
  ];
  execFileSync("git", ["init", "-q"], { cwd: ROOT });
  execFileSync("git", [...identity, "add", "-A"], { cwd: ROOT });
  execFileSync("git", [...identity, "commit", "-q", "-m", "bench tree"], { cwd: ROOT });
  fs.writeFileSync(DONE_MARKER, "");
}

async function timeDiscovery(): Promise<{ ms: number; found: number }> {
  const start = performance.now();
  const result = await discoverSpecs({ workspace: ROOT, git: commandLineGit, logger: silentLogger });
  return { ms: performance.now() - start, found: result.specs.length + result.broken.length };
}

function timeBaseline(): { ms: number; found: number } {
  const command =
    "git ls-files | grep -E '\\.(ya?ml|json)$' | xargs grep -l -E '^(openapi|swagger)|\"(openapi|swagger)\"' || true";
  const start = performance.now();
  const output = execSync(command, { cwd: ROOT, shell: "/bin/sh", maxBuffer: 64 * 1024 * 1024 }).toString();
  return { ms: performance.now() - start, found: output.split("\n").filter(Boolean).length };
}

const PATTERNS = ["**/*.yaml", "!**/drafts/**"];

type Matcher = { name: string; run: () => Promise<string[]> };

/** Pattern mode's file matching, and the libraries it was compared with when they are installed. */
async function patternMatchers(): Promise<Matcher[]> {
  const matchers: Matcher[] = [
    {
      name: "matchPatternFiles (walk + minimatch)",
      run: () => matchPatternFiles(ROOT, readPatternLines(PATTERNS)),
    },
  ];
  const optional = (name: string) => import(name).catch(() => undefined);
  const glob = await optional("@actions/glob");
  if (glob !== undefined) {
    matchers.push({
      name: "@actions/glob 0.7 (replaced)",
      run: async () => {
        // It writes `::debug::` lines to stdout itself; keep them out of the table.
        const write = process.stdout.write;
        process.stdout.write = () => true;
        try {
          const lines = PATTERNS.map((line) =>
            line.startsWith("!") ? `!${ROOT}/${line.slice(1)}` : `${ROOT}/${line}`,
          );
          const globber = await glob.create(lines.join("\n"), {
            followSymbolicLinks: false,
            implicitDescendants: true,
            matchDirectories: false,
          });
          return (await globber.glob()) as string[];
        } finally {
          process.stdout.write = write;
        }
      },
    });
  }
  const tiny = await optional("tinyglobby");
  if (tiny !== undefined) {
    matchers.push({
      name: "tinyglobby (picomatch; no line order)",
      run: async () =>
        (await tiny.glob(["**/*.yaml"], {
          cwd: ROOT,
          ignore: ["**/drafts/**", "**/node_modules/**", "**/.git/**"],
          dot: true,
          followSymbolicLinks: false,
          absolute: true,
          braceExpansion: false,
          extglob: false,
        })) as string[],
    });
  }
  return matchers;
}

async function timePatterns(): Promise<void> {
  const matchers = await patternMatchers();
  for (const matcher of matchers) await matcher.run(); // warm-up
  const times = matchers.map(() => [] as number[]);
  const found = matchers.map(() => 0);
  for (let run = 0; run < RUNS; run++) {
    for (const [index, matcher] of matchers.entries()) {
      const start = performance.now();
      const files = await matcher.run();
      times[index]?.push(performance.now() - start);
      found[index] = files.length;
    }
  }
  console.log(`\nPattern mode, files: ${JSON.stringify(PATTERNS)} (matching only, no parsing)\n`);
  console.log("| method | median ms | min ms | max ms | files matched |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [index, matcher] of matchers.entries()) {
    const t = times[index] as number[];
    console.log(
      `| ${matcher.name} | ${median(t).toFixed(0)} | ${Math.min(...t).toFixed(0)} | ${Math.max(...t).toFixed(0)} | ${found[index]} |`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  if (!fs.existsSync(DONE_MARKER)) generate();
  else console.log(`Reusing the tree in ${ROOT}`);

  await timeDiscovery(); // warm-up: file cache and JIT, not counted
  timeBaseline();
  const ours: number[] = [];
  const baseline: number[] = [];
  let foundOurs = 0;
  let foundBaseline = 0;
  for (let run = 0; run < RUNS; run++) {
    const a = await timeDiscovery();
    const b = timeBaseline();
    ours.push(a.ms);
    baseline.push(b.ms);
    foundOurs = a.found;
    foundBaseline = b.found;
  }
  const oursMedian = median(ours);
  const baselineMedian = median(baseline);
  const row = (name: string, times: number[], found: number) =>
    `| ${name} | ${median(times).toFixed(0)} | ${Math.min(...times).toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${found} |`;
  console.log(`\n${RUNS} runs, ${os.cpus().length} CPUs, Node ${process.version}\n`);
  console.log("| method | median ms | min ms | max ms | files found |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(row("discoverSpecs (default mode)", ours, foundOurs));
  console.log(row("git ls-files + grep (baseline)", baseline, foundBaseline));
  console.log(`\nratio discoverSpecs / baseline: ${(oursMedian / baselineMedian).toFixed(2)}`);
  console.log(
    `target (median under ${TARGET_MS} ms): ${oursMedian < TARGET_MS ? "met" : "NOT met"} (${oursMedian.toFixed(0)} ms)`,
  );
  await timePatterns();
}

await main();
