/**
 * The engine of `match()` and `search()` in overlay targets (docs/design/overlays.md, "Patterns: a linear-time
 * engine"): the chosen one (re2js, through the overlay's own JSONPath environment) against the baseline,
 * JavaScript's RegExp as json-p3 runs it, and against the other candidates when they are installed:
 *
 * 1. correctness: the JSONPath Compliance Test Suite's 56 regex cases
 *    (test/shaping/fixtures/jsonpath-cts-regex/);
 * 2. speed: a realistic overlay's targets on Stripe's 4 MB spec3.yaml (test/fixtures/real-specs/, or
 *    `--spec FILE`), median of 5 each, in a fresh process per engine with its peak memory; then the
 *    patterns that hold RegExp for hours, on a 3,000-character text;
 * 3. size: dist/ as `npm run build` makes it, and each engine bundled alone.
 *
 *   npx node bench/overlay-patterns.ts [--spec FILE] [--candidates DIR]
 *
 * `--candidates` names a node_modules folder holding `re2-wasm` and `re2` (its native addon built); V8's
 * own linear engine (`--enable-experimental-regexp-engine`, set here with v8.setFlagsFromString) is
 * measured with them. To make one:
 *
 *   mkdir -p .scratch/re-eval && cd .scratch/re-eval && npm init -y && npm install re2-wasm@1.0.2 re2
 *   (cd node_modules/re2 && npx node-gyp rebuild)   # when its install script could not fetch a binary
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { brotliDecompressSync } from "node:zlib";
import { build } from "esbuild";
import { load } from "js-yaml";
import { JSONPathEnvironment, jsonpath } from "json-p3";
import { JSONPATH } from "../src/core/shaping/overlay.ts";
import { compilePattern, toRe2Syntax } from "../src/core/shaping/patterns.ts";
import { type ComplianceTest, median, passedTests } from "./jsonpath-measures.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const candidatesDir = arg("--candidates");
const specFile = arg("--spec");
const child = arg("--child");

/** A pattern compiled by an engine: whether it matches the whole text (`match`) or a part (`search`). */
type Engine = (pattern: string, fn: "match" | "search") => (text: string) => boolean;

function candidateEngines(): Record<string, Engine> {
  if (!candidatesDir) return {};
  const from = createRequire(path.resolve(candidatesDir, "..", "package.json"));
  const optional = (name: string) => {
    try {
      return from(name);
    } catch (error) {
      console.error(`${name} not measured: ${(error as Error).message.split("\n")[0]}`);
      return undefined;
    }
  };
  const wasm = optional("re2-wasm");
  const native = optional("re2");
  v8.setFlagsFromString("--enable-experimental-regexp-engine");
  const anchored = (pattern: string, fn: "match" | "search") =>
    fn === "match" ? `^(?:${toRe2Syntax(pattern)})$` : toRe2Syntax(pattern);
  const engines: Record<string, Engine> = {};
  if (wasm)
    engines["re2-wasm"] = (pattern, fn) => {
      const re = new wasm.RE2(anchored(pattern, fn), "u");
      return (text) => re.test(text);
    };
  if (native)
    engines["re2 (native)"] = (pattern, fn) => {
      const re = new native(anchored(pattern, fn), "u");
      return (text) => re.test(text);
    };
  // The `l` flag refuses the `u` flag: no `\p{…}`, and `.` counts UTF-16 units.
  engines["V8 linear (`l`)"] = (pattern, fn) => {
    const re = new RegExp(anchored(pattern, fn), "l");
    return (text) => re.test(text);
  };
  return engines;
}

/** JavaScript's RegExp under RFC 9485's mapping, as json-p3 runs it, in the candidates' wrapper. */
const regexpEngine: Engine = (pattern, fn) => {
  const inner = new jsonpath.functions[fn === "match" ? "Match" : "Search"]();
  return (text) => inner.call(text, pattern);
};

/** A strict environment whose match() and search() use `engine` (compiled patterns cached). */
function environmentOf(engine: Engine): JSONPathEnvironment {
  const env = new JSONPathEnvironment({ strict: true });
  for (const fn of ["match", "search"] as const) {
    const inner = env.functionRegister.get(fn);
    if (!inner) continue;
    const cache = new Map<string, (text: string) => boolean>();
    env.functionRegister.set(fn, {
      argTypes: inner.argTypes,
      returnType: inner.returnType,
      call: (value: unknown, pattern: unknown) => {
        if (typeof value !== "string" || typeof pattern !== "string") return false;
        let test = cache.get(pattern);
        if (!test) {
          test = engine(pattern, fn);
          cache.set(pattern, test);
        }
        return test(value);
      },
    });
  }
  return env;
}

function environments(): Record<string, JSONPathEnvironment> {
  return {
    "RegExp, as json-p3 runs it (before)": new JSONPathEnvironment({ strict: true }),
    "RegExp, in the candidates' wrapper": environmentOf(regexpEngine),
    "**re2js** (chosen: the overlay's environment)": JSONPATH,
    ...Object.fromEntries(Object.entries(candidateEngines()).map(([name, e]) => [name, environmentOf(e)])),
  };
}

function compliance(): string[] {
  const { tests } = JSON.parse(
    readFileSync(path.join(root, "test/shaping/fixtures/jsonpath-cts-regex/cts-regex.json"), "utf8"),
  ) as { tests: ComplianceTest[] };
  const lines = [
    `JSONPath Compliance Test Suite, regex cases (${tests.length}):`,
    "",
    "| engine | passed |",
    "| --- | --- |",
  ];
  for (const [name, env] of Object.entries(environments())) {
    const passed = passedTests(tests, (document, selector) =>
      env.query(selector, document as never).values(),
    );
    lines.push(`| ${name} | ${passed} / ${tests.length} |`);
  }
  return lines;
}

/** A realistic overlay's targets: operations by id, deprecations anywhere, internal schemas. */
const TARGETS = [
  "$.paths.*[?search(@.operationId, '^Get')]",
  "$.paths.*[?match(@.operationId, 'Post(Customers|Invoices).*')]",
  "$..[?search(@.description, '[Dd]eprecated|[Bb]eta')]",
  "$.components.schemas[?match(@.description, '.*(internal|preview).*')]",
  "$..[?search(@, 'internal')]",
];

function readSpec(): { document: unknown; label: string } {
  const file = specFile ?? path.join(root, "test/fixtures/real-specs/stripe-spec3.yaml.br");
  const raw = readFileSync(file);
  const text = (file.endsWith(".br") ? brotliDecompressSync(raw) : raw).toString("utf8");
  const document = file.replace(/\.br$/, "").endsWith(".json") ? JSON.parse(text) : load(text);
  return { document, label: `${path.basename(file)} (${(text.length / 1e6).toFixed(1)} MB)` };
}

/** Text for a Markdown table's cell: its `|` escaped. */
const cell = (text: string) => text.replaceAll("|", "\\|");

/** In a fresh process: the targets' medians with one engine, and the process's peak memory. */
function childRun(name: string): void {
  const { document } = readSpec();
  const env = name === "load only" ? undefined : environments()[name];
  const medians = env
    ? TARGETS.map((target) => ({
        ms: median(() => env.query(target, document as never).nodes.length),
        nodes: env.query(target, document as never).nodes.length,
      }))
    : [];
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ medians, peak }));
}

function speed(): string[] {
  const names = ["load only", ...Object.keys(environments())];
  const runs = new Map<string, { medians: Array<{ ms: number; nodes: number }>; peak: number }>();
  for (const name of names) {
    const args = [fileURLToPath(import.meta.url), "--child", name];
    if (specFile) args.push("--spec", specFile);
    if (candidatesDir) args.push("--candidates", candidatesDir);
    const run = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24 });
    if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
    runs.set(name, JSON.parse(run.stdout.trim().split("\n").at(-1) as string));
  }
  const base = runs.get("RegExp, as json-p3 runs it (before)");
  const loadPeak = runs.get("load only")?.peak ?? 0;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const lines = [
    `A realistic overlay's targets on ${readSpec().label}, median of 5 (ms), each engine in a fresh process:`,
    "",
    `| target | nodes | ${[...runs.keys()].slice(1).join(" | ")} |`,
    `| --- | --- | ${[...runs.keys()]
      .slice(1)
      .map(() => "---")
      .join(" | ")} |`,
  ];
  TARGETS.forEach((target, i) => {
    const cells = [...runs.values()].slice(1).map((run) => (run.medians[i]?.ms ?? 0).toFixed(1));
    lines.push(`| \`${cell(target)}\` | ${base?.medians[i]?.nodes} | ${cells.join(" | ")} |`);
  });
  const total = (run: { medians: Array<{ ms: number }> }) => run.medians.reduce((sum, m) => sum + m.ms, 0);
  lines.push(
    `| all five | | ${[...runs.values()]
      .slice(1)
      .map((run) => total(run).toFixed(0))
      .join(" | ")} |`,
    `| ratio to RegExp as json-p3 runs it | | ${[...runs.values()]
      .slice(1)
      .map((run) => (base ? (total(run) / total(base)).toFixed(2) : "?"))
      .join(" | ")} |`,
    `| peak memory (process; reading the spec alone: ${mb(loadPeak)}) | | ${[...runs.values()]
      .slice(1)
      .map((run) => mb(run.peak))
      .join(" | ")} |`,
  );
  return lines;
}

/** The patterns of issue 26, on a 3,000-character text: the linear engines only (RegExp takes hours). */
function hostile(): string[] {
  const text = "a".repeat(3000);
  const patterns = [".*.*.*.*.*.*Z", "(a*){9}Z", "(a+)+$", "(a|aa)*b"];
  const engines: Record<string, Engine> = {
    re2js: (pattern, fn) => {
      const compiled = compilePattern(pattern, fn);
      return (t) => compiled.test(t);
    },
    ...candidateEngines(),
  };
  const lines = [
    "Patterns that backtrack in RegExp, match() on a 3,000-character text (ms, median of 5; RegExp: hours):",
    "",
    `| pattern | ${Object.keys(engines).join(" | ")} |`,
    `| --- | ${Object.keys(engines)
      .map(() => "---")
      .join(" | ")} |`,
  ];
  for (const pattern of patterns) {
    const cells = Object.values(engines).map((engine) => {
      try {
        return median(() => engine(pattern, "match")(text)).toFixed(1);
      } catch (error) {
        return `refused: ${(error as Error).message.slice(0, 40)}`;
      }
    });
    lines.push(`| \`${cell(pattern)}\` | ${cells.join(" | ")} |`);
  }
  // RegExp's growth on short texts, to show why the engine changed: each doubling costs about 2⁶.
  const growth = [20, 40, 60].map((n) => {
    const test = regexpEngine(".*.*.*.*.*.*Z", "match");
    return `${n} characters: ${median(() => test("a".repeat(n)), 1).toFixed(0)} ms`;
  });
  lines.push("", `RegExp on \`.*.*.*.*.*.*Z\`: ${growth.join("; ")}.`);
  return lines;
}

/** Minified and bundled alone, as `dist/` bundles its packages. */
async function bundledAlone(code: string, resolveDir: string): Promise<number> {
  const out = await build({
    stdin: { contents: code, resolveDir },
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    write: false,
    target: "node22",
    legalComments: "none",
    logLevel: "silent",
  });
  return out.outputFiles[0]?.contents.length ?? 0;
}

async function sizes(): Promise<string[]> {
  // dist/ as `npm run build` makes it, into a folder of its own.
  const out = mkdtempSync(path.join(tmpdir(), "overlay-patterns-dist-"));
  let total = 0;
  try {
    execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--outdir", out], {
      stdio: "ignore",
    });
    for (const entry of readdirSync(out, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith(".js"))
        total += statSync(path.join(entry.parentPath, entry.name)).size;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const re2js = await bundledAlone("import { RE2JS } from 're2js'; RE2JS.compile('a');", root);
  const lines = [
    `dist/ as \`npm run build\` makes it: ${kb(total)} of code; re2js bundled alone: ${kb(re2js)}.`,
  ];
  if (candidatesDir) {
    const from = createRequire(path.resolve(candidatesDir, "..", "package.json"));
    const wasm = readFileSync(path.join(path.dirname(from.resolve("re2-wasm")), "../wasm/re2.wasm")).length;
    const js = await bundledAlone(
      "import { RE2 } from 're2-wasm'; new RE2('a', 'u');",
      path.resolve(candidatesDir, ".."),
    );
    lines.push(
      `re2-wasm bundled alone: ${kb(js)} of JavaScript plus its ${kb(wasm)} re2.wasm, which esbuild does not bundle (scripts/build.mjs refuses files that are not code); re2 (native): its addon is a compiled .node file, which cannot be bundled at all; V8's linear engine: nothing.`,
    );
  }
  return lines;
}

if (child) childRun(child);
else console.log([...compliance(), "", ...speed(), "", ...hostile(), "", ...(await sizes())].join("\n"));
