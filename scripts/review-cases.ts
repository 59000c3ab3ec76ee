/**
 * The API change review's findings on real pairs of releases, written out to be checked by hand
 * (`docs/design/change-review-cases.md` holds the checks): for each pair of `bench/review-material.ts`, runs
 * `compareApis(base, head)` (in a child process per pair, `--max-old-space-size=4096`, 300 s) and writes
 *
 * - `<out>/<pair>.txt`: every finding, one a line: its id (`B12` breaking, `O7` other), kind, JSON
 *   pointer (Swagger 2.0: into its OpenAPI 3 form) and the line a reviewer reads (`changeLine`), a `*`
 *   before the id of those in the sample to check;
 * - `<out>/<pair>.json`: the same, with every field of each change;
 * - `<out>/<pair>.structural.txt`: a cross-check for recall, an independent shallow structural diff of
 *   the two documents (operations, parameters, responses and media types, request bodies, security,
 *   deprecation; the properties, required lists, enums, types, formats and defaults of the named schemas
 *   that operations use; servers, Swagger 2.0's built from host, basePath and schemes as the engine does,
 *   and those three fields when they change without changing the servers), each change marked found when a
 *   finding shows it, `MISSED` when none does (a candidate to read by hand: it may be worded otherwise).
 *   It reads Swagger 2.0 through `src/core/changes/swagger2.ts`, as the engine does, and looks for findings by
 *   the engine's kinds and wording (`<name>: property added`);
 * - `<out>/summary.md`: per pair, the counts, the sample and the cross-check.
 *
 * The sample: a pair with at most 40 findings is checked whole; above that, 40 drawn at random from all
 * of them (seed 17, `mulberry32`, the same every run for the same findings) plus every breaking one, or
 * 40 of them drawn the same way when there are more.
 *
 * Run with `npx node scripts/review-cases.ts [pair id…] [--out <folder>] [--engine <file>]
 * [--mirrors <folder>] [--cache <folder>]`; the default `<out>` is `findings/` in the material's cache.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gatherMaterial, type MaterialPair, PAIRS } from "../bench/review-material.ts";
import type { ApiChange, ApiChanges } from "../src/core/changes/index.ts";
import { isSwagger2, swagger2ToOpenApi3 } from "../src/core/changes/swagger2.ts";
import { changeLine } from "../src/core/changes/text.ts";
import { parseSource } from "../src/core/documents/source-text.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_ENGINE = path.resolve(here, "..", "src", "core", "changes", "index.ts");
export const SAMPLE_SIZE = 40;
export const SEED = 17;

export interface Finding extends ApiChange {
  id: string;
  verdict: "breaking" | "other";
  line: string;
}

/** A small seeded generator, so the sample is the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` of `items` drawn without replacement (Fisher–Yates with the seeded generator), in their order. */
function draw<T>(items: readonly T[], count: number, seed: number): T[] {
  if (items.length <= count) return [...items];
  const random = mulberry32(seed);
  const indexes = items.map((_, i) => i);
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
  }
  return indexes
    .slice(0, count)
    .sort((x, y) => x - y)
    .map((i) => items[i] as T);
}

/** The ids to check: everything up to 40 findings; else 40 at random plus the breaking ones (up to 40). */
export function sampleOf(findings: readonly Finding[]): Set<string> {
  if (findings.length <= SAMPLE_SIZE) return new Set(findings.map((f) => f.id));
  const breaking = findings.filter((f) => f.verdict === "breaking");
  return new Set([
    ...draw(findings, SAMPLE_SIZE, SEED).map((f) => f.id),
    ...draw(breaking, SAMPLE_SIZE, SEED).map((f) => f.id),
  ]);
}

export function findingsOf(changes: ApiChanges): Finding[] {
  return [
    ...changes.breaking.map((c, i) => ({
      ...c,
      id: `B${i + 1}`,
      verdict: "breaking" as const,
      line: changeLine(c),
    })),
    ...changes.other.map((c, i) => ({
      ...c,
      id: `O${i + 1}`,
      verdict: "other" as const,
      line: changeLine(c),
    })),
  ];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** A change the structural cross-check expects among the findings, and how a finding shows it. */
interface Expected {
  what: string;
  shows: (f: Finding) => boolean;
}

/** The node a local `$ref` chain ends at (the node itself when it is none). */
function deref(doc: Json, node: unknown): unknown {
  let current = node;
  for (let i = 0; i < 20 && isObject(current) && typeof current.$ref === "string"; i++) {
    if (!current.$ref.startsWith("#/")) return current;
    let target: unknown = doc;
    for (const raw of current.$ref.slice(2).split("/")) {
      const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) ? target[key] : Array.isArray(target) ? target[Number(key)] : undefined;
    }
    if (target === undefined) return current;
    current = target;
  }
  return current;
}
const objectAt = (doc: Json, node: unknown): Json => {
  const value = deref(doc, node);
  return isObject(value) ? value : {};
};
const text = (value: unknown) => JSON.stringify(value);

/** Component schemas reachable from the paths, by name. */
function usedSchemas(doc: Json): Set<string> {
  const seen = new Set<string>();
  const refs = new Set<string>();
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const name = ref.slice(21).replaceAll("~1", "/").replaceAll("~0", "~");
      if (!seen.has(name)) {
        seen.add(name);
        walk(schemas[name]);
      }
    } else if (typeof ref === "string" && !refs.has(ref)) {
      refs.add(ref);
      walk(deref(doc, node));
    }
    for (const [key, value] of Object.entries(node))
      if (key !== "example" && key !== "examples" && key !== "$ref") walk(value);
  };
  walk(doc.paths);
  return seen;
}

/** A schema's own and `allOf` properties and required names (documentation left out). */
function shape(
  doc: Json,
  node: unknown,
  depth = 0,
): { properties: Json; required: Set<string>; enum?: unknown[] } {
  const schema = objectAt(doc, node);
  const properties: Json = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  if (depth < 10 && Array.isArray(schema.allOf))
    for (const member of schema.allOf) {
      const inner = shape(doc, member, depth + 1);
      Object.assign(properties, inner.properties);
      for (const name of inner.required) required.add(name);
    }
  return { properties, required, ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}) };
}

/**
 * An independent, shallow structural diff of the two documents (OpenAPI 3 form): operations,
 * parameters, response statuses and media types, request bodies, operation security, deprecation,
 * the properties, required lists, enums, types, formats and defaults of the named schemas that
 * operations use, and servers. Each change is looked up among the findings; the ones not found are
 * the candidates for "missed" (they still need a look: the finding may word it another way).
 */
export function structuralChanges(a: Json, b: Json): Expected[] {
  const out: Expected[] = [];
  const expect = (what: string, shows: (f: Finding) => boolean) => out.push({ what, shows });
  const pathsA = isObject(a.paths) ? a.paths : {};
  const pathsB = isObject(b.paths) ? b.paths : {};
  for (const [p, rawA] of Object.entries(pathsA)) {
    const itemA = objectAt(a, rawA);
    const itemB = p in pathsB ? objectAt(b, pathsB[p]) : undefined;
    for (const m of METHODS) {
      const opA = itemA[m];
      const opB = itemB?.[m];
      const M = m.toUpperCase();
      const at = (f: Finding) => f.path === p && f.method === M;
      if (isObject(opA) && !isObject(opB))
        expect(
          `${M} ${p} removed`,
          (f) => (at(f) && f.kind === "operation-removed") || (f.kind === "path-removed" && f.path === p),
        );
      if (!isObject(opA) || !isObject(opB) || itemB === undefined) continue;
      const parameters = (doc: Json, item: Json, op: Json) =>
        new Map(
          [
            ...(Array.isArray(item.parameters) ? item.parameters : []),
            ...(Array.isArray(op.parameters) ? op.parameters : []),
          ]
            .map((raw) => objectAt(doc, raw))
            .filter((x) => typeof x.name === "string" && typeof x.in === "string" && x.in !== "path")
            .map((x) => [`${x.in}:${x.name}`, x] as const),
        );
      const before = parameters(a, itemA, opA);
      const after = parameters(b, itemB, opB);
      for (const [key, x] of before)
        if (!after.has(key))
          expect(
            `${M} ${p} parameter ${key} removed`,
            (f) => at(f) && f.kind === "parameter-removed" && f.message.includes(String(x.name)),
          );
      for (const [key, x] of after) {
        const y = before.get(key);
        if (y === undefined)
          expect(
            `${M} ${p} parameter ${key} added`,
            (f) => at(f) && f.kind.endsWith("parameter-added") && f.message.includes(String(x.name)),
          );
        else if ((y.required === true) !== (x.required === true))
          expect(
            `${M} ${p} parameter ${key} required → ${x.required === true}`,
            (f) => at(f) && f.kind.startsWith("parameter-made") && f.message.includes(String(x.name)),
          );
      }
      const responsesA = objectAt(a, opA.responses);
      const responsesB = objectAt(b, opB.responses);
      for (const code of Object.keys(responsesA))
        if (!(code in responsesB))
          expect(
            `${M} ${p} response ${code} removed`,
            (f) => at(f) && f.kind.endsWith("response-removed") && f.message.includes(code),
          );
      for (const code of Object.keys(responsesB)) {
        if (!(code in responsesA)) {
          expect(
            `${M} ${p} response ${code} added`,
            (f) => at(f) && f.kind === "response-added" && f.message.includes(code),
          );
          continue;
        }
        const mediaA = Object.keys(objectAt(a, objectAt(a, responsesA[code]).content));
        const mediaB = Object.keys(objectAt(b, objectAt(b, responsesB[code]).content));
        for (const media of mediaA)
          if (!mediaB.includes(media))
            expect(
              `${M} ${p} response ${code} no longer ${media}`,
              (f) => at(f) && f.kind === "response-media-type-removed" && f.message.includes(media),
            );
        for (const media of mediaB)
          if (!mediaA.includes(media))
            expect(
              `${M} ${p} response ${code} now ${media}`,
              (f) => at(f) && f.kind === "response-media-type-added" && f.message.includes(media),
            );
      }
      if (isObject(deref(a, opA.requestBody)) !== isObject(deref(b, opB.requestBody)))
        expect(
          `${M} ${p} request body ${isObject(deref(b, opB.requestBody)) ? "added" : "removed"}`,
          (f) => at(f) && f.kind.includes("request-body"),
        );
      if (text(opA.security) !== text(opB.security))
        expect(
          `${M} ${p} security ${text(opA.security)} → ${text(opB.security)}`,
          (f) => at(f) && f.kind.startsWith("security"),
        );
      if ((opA.deprecated === true) !== (opB.deprecated === true))
        expect(
          `${M} ${p} deprecated → ${opB.deprecated === true}`,
          (f) => at(f) && f.kind === "operation-deprecated",
        );
    }
  }
  for (const [p, rawB] of Object.entries(pathsB))
    for (const m of METHODS)
      if (isObject(objectAt(b, rawB)[m]) && !isObject(objectAt(a, pathsA[p])[m]))
        expect(
          `${m.toUpperCase()} ${p} added`,
          (f) => f.kind === "operation-added" && f.path === p && f.method === m.toUpperCase(),
        );

  const schemasA = isObject(a.components) && isObject(a.components.schemas) ? a.components.schemas : {};
  const schemasB = isObject(b.components) && isObject(b.components.schemas) ? b.components.schemas : {};
  const usedA = usedSchemas(a);
  const usedB = usedSchemas(b);
  const ends = (f: Finding, tail: string) => f.message.endsWith(tail);
  for (const name of Object.keys(schemasB)) {
    if (!(name in schemasA) || !usedA.has(name) || !usedB.has(name)) continue;
    const x = shape(a, schemasA[name]);
    const y = shape(b, schemasB[name]);
    for (const k of Object.keys(x.properties))
      if (!(k in y.properties))
        expect(
          `${name}.${k} removed`,
          (f) => f.kind === "property-removed" && ends(f, `${k}: property removed`),
        );
    for (const [k, schemaB] of Object.entries(y.properties)) {
      if (!(k in x.properties)) {
        const word = y.required.has(k) ? "required property" : "property";
        expect(
          `${name}.${k} added`,
          (f) => f.kind.endsWith("property-added") && ends(f, `${k}: ${word} added`),
        );
        continue;
      }
      const schemaA = x.properties[k];
      if (x.required.has(k) !== y.required.has(k))
        expect(
          `${name}.${k} required → ${y.required.has(k)}`,
          (f) => f.kind.startsWith("property-made") && f.message.includes(`${k}: property`),
        );
      const pa = objectAt(a, schemaA);
      const pb = objectAt(b, schemaB);
      if (Array.isArray(pa.enum) && Array.isArray(pb.enum)) {
        const added = pb.enum.filter((v) => !(pa.enum as unknown[]).includes(v));
        const removed = pa.enum.filter((v) => !(pb.enum as unknown[]).includes(v));
        if (added.length > 0)
          expect(
            `${name}.${k} enum + ${text(added.slice(0, 3))}`,
            (f) => f.kind === "enum-value-added" && f.message.includes(k),
          );
        if (removed.length > 0)
          expect(
            `${name}.${k} enum − ${text(removed.slice(0, 3))}`,
            (f) => f.kind === "enum-value-removed" && f.message.includes(k),
          );
      }
      const direct = !(isObject(schemaA) && "$ref" in schemaA) && !(isObject(schemaB) && "$ref" in schemaB);
      if (direct && text(pa.type) !== text(pb.type))
        expect(
          `${name}.${k} type ${text(pa.type)} → ${text(pb.type)}`,
          (f) => f.kind.startsWith("type-") && f.message.includes(k),
        );
      if (direct && pa.format !== pb.format)
        expect(
          `${name}.${k} format ${text(pa.format)} → ${text(pb.format)}`,
          (f) => f.kind.startsWith("format-") && f.message.includes(k),
        );
      if (text(pa.default) !== text(pb.default))
        expect(
          `${name}.${k} default ${text(pa.default)} → ${text(pb.default)}`,
          (f) => f.kind === "default-changed" && f.message.includes(k),
        );
    }
    if (x.enum && y.enum) {
      const added = y.enum.filter((v) => !(x.enum as unknown[]).includes(v));
      const removed = x.enum.filter((v) => !(y.enum as unknown[]).includes(v));
      if (added.length > 0)
        expect(`${name} enum + ${text(added.slice(0, 3))}`, (f) => f.kind === "enum-value-added");
      if (removed.length > 0)
        expect(`${name} enum − ${text(removed.slice(0, 3))}`, (f) => f.kind === "enum-value-removed");
    }
  }
  // A Swagger 2.0 document's servers are its host, basePath and schemes converted: one change, once.
  if (text(a.servers) !== text(b.servers)) expect("servers changed", (f) => f.kind === "servers-changed");
  else if (
    text(a.host) !== text(b.host) ||
    text(a.basePath) !== text(b.basePath) ||
    text(a.schemes) !== text(b.schemes)
  )
    expect(
      `Swagger 2.0 host/basePath/schemes ${text([a.host, a.basePath])} → ${text([b.host, b.basePath])}`,
      (f) => f.kind === "servers-changed",
    );
  if (text(a.security) !== text(b.security))
    expect("document security changed", (f) => f.kind.startsWith("security"));
  return out;
}

/** The OpenAPI 3 form the engines compare (Swagger 2.0 converted), with 2.0's server fields kept. */
function openApi3(doc: unknown): Json {
  if (!isObject(doc)) return {};
  if (!isSwagger2(doc)) return doc;
  return { ...swagger2ToOpenApi3(doc), host: doc.host, basePath: doc.basePath, schemes: doc.schemes };
}

async function child(): Promise<void> {
  const [baseFile, headFile, format, engine, out] = process.argv.slice(3) as string[];
  const { compareApis } = (await import(pathToFileURL(engine as string).href)) as {
    compareApis: (before: unknown, after: unknown) => ApiChanges;
  };
  const json = format === "json";
  const base = parseSource(readFileSync(baseFile as string, "utf8"), json);
  const head = parseSource(readFileSync(headFile as string, "utf8"), json);
  const changes = compareApis(base, head);
  // Uncapped engines list everything; the cross-check reads what the engine listed.
  const findings = findingsOf(changes);
  const missed = structuralChanges(openApi3(base), openApi3(head)).map((e) => ({
    what: e.what,
    found: findings.some(e.shows),
  }));
  writeFileSync(out as string, JSON.stringify({ changes, structural: missed }));
}

function writePair(
  pair: MaterialPair,
  changes: ApiChanges,
  out: string,
): { findings: Finding[]; sample: Set<string> } {
  const findings = findingsOf(changes);
  const sample = sampleOf(findings);
  writeFileSync(path.join(out, `${pair.id}.json`), `${JSON.stringify(findings, null, 1)}\n`);
  const lines = findings.map(
    (f) => `${sample.has(f.id) ? "*" : " "}${f.id}\t${f.kind}\t${f.location}\t${f.line}`,
  );
  writeFileSync(
    path.join(out, `${pair.id}.txt`),
    `# ${pair.id}: ${pair.repo} ${pair.path} ${pair.base} → ${pair.head}\n# ${changes.breaking.length} breaking, ${changes.other.length} other${changes.omitted ? `, ${changes.omitted} more counted, not listed` : ""}; * = in the sample (${sample.size})\n${lines.join("\n")}\n`,
  );
  return { findings, sample };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (name: string) => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []))[0];
  const ids = new Set(PAIRS.map((p) => p.id));
  const mirrors = value("--mirrors");
  const cache = value("--cache");
  const engine = path.resolve(value("--engine") ?? DEFAULT_ENGINE);
  const manifest = await gatherMaterial({
    ...(mirrors ? { mirrors } : {}),
    ...(cache ? { cache } : {}),
    only: args.filter((arg) => ids.has(arg)),
  });
  const out = path.resolve(value("--out") ?? path.join(manifest.cache, "findings"));
  mkdirSync(out, { recursive: true });
  const summary = [
    `Engine: ${engine}`,
    "",
    "| Pair | Breaking | Other | Counted, not listed | Sample | Sampled breaking | Structural changes (cross-check) | Not found among the findings |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const pair of manifest.pairs) {
    const file = path.join(out, `${pair.id}.raw.json`);
    const run = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=4096",
        fileURLToPath(import.meta.url),
        "--child",
        pair.baseFile,
        pair.headFile,
        pair.format,
        engine,
        file,
      ],
      { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL", maxBuffer: 64 << 20 },
    );
    if (run.status !== 0) {
      const why = run.error ? run.error.message : (run.stderr ?? "").trim().split("\n").slice(-2).join(" ");
      summary.push(`| ${pair.id} | did not finish: ${why.slice(0, 200)} | | | | | | |`);
      process.stderr.write(`${pair.id}: did not finish\n`);
      continue;
    }
    const { changes, structural } = JSON.parse(readFileSync(file, "utf8")) as {
      changes: ApiChanges;
      structural: { what: string; found: boolean }[];
    };
    const { findings, sample } = writePair(pair, changes, out);
    const notFound = structural.filter((s) => !s.found);
    writeFileSync(
      path.join(out, `${pair.id}.structural.txt`),
      `# ${pair.id}: ${structural.length} structural changes, ${notFound.length} not found among the findings\n${structural.map((s) => `${s.found ? "found " : "MISSED"} ${s.what}`).join("\n")}\n`,
    );
    const sampledBreaking = findings.filter((f) => f.verdict === "breaking" && sample.has(f.id)).length;
    summary.push(
      `| ${pair.id} | ${changes.breaking.length} | ${changes.other.length} | ${changes.omitted ?? 0} | ${sample.size} | ${sampledBreaking} | ${structural.length} | ${notFound.length} |`,
    );
    process.stderr.write(`${pair.id}: ${changes.breaking.length} breaking, ${changes.other.length} other\n`);
  }
  writeFileSync(path.join(out, "summary.md"), `${summary.join("\n")}\n`);
  console.log(`Findings in ${out}\n`);
  console.log(summary.join("\n"));
}

if (process.argv[2] === "--child") await child();
else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
