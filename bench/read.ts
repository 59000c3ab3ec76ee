/**
 * Benchmark of reading YAML and JSON files the way discovery does (`parseText`: `JSON.parse` for JSON,
 * `js-yaml` for YAML, `yaml` only to explain an error), next to the baselines measured in the same run:
 * `js-yaml`'s `load` and `JSON.parse` on the same data, and `yaml`'s `parseDocument` (the reader used
 * before, quadratic in a mapping's size) where it finishes in reasonable time.
 * Run: `npx node bench/read.ts [runs]`.
 *
 * Each (file, reader) pair runs in a process of its own, so its peak RSS is its own. Inputs: OpenAPI
 * documents of 1.4, 8 and 16 MB (YAML, and the 16 MB one as JSON too) and flat mappings of 50,000 and
 * 100,000 keys; generated once under the system temp folder.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";
import { parseDocument, stringify } from "yaml";
import { fileReferenceRule } from "../src/core/bundling/index.ts";
import { parseText } from "../src/core/discovery/parse.ts";
import { scanJsonObject } from "../src/core/documents/json-scan.ts";

const here = fileURLToPath(import.meta.url);
const ROOT = path.join(os.tmpdir(), "gitbook-openapi-bench-read-v1");
const RUNS = Math.max(3, Number(process.env.BENCH_READ_RUNS ?? process.argv[2] ?? 5) || 5);

type Reader = "ours" | "ours, JSON check" | "js-yaml" | "JSON.parse" | "yaml parseDocument";
const readers: Record<Reader, (text: string, file: string, bytes: Buffer) => unknown> = {
  ours: (text, file) => {
    const outcome = parseText(text, file.endsWith(".json") ? "json" : "yaml");
    if (!outcome.ok) throw new Error(outcome.problem.message);
    return outcome.value;
  },
  // What loading a strict JSON spec does when its turn comes: a scan of the bytes as read, nothing built.
  "ours, JSON check": (_text, _file, bytes) => {
    if (!scanJsonObject(bytes, 0, fileReferenceRule)) throw new Error("not strict JSON");
  },
  "js-yaml": (text) => load(text),
  "JSON.parse": (text) => JSON.parse(text),
  "yaml parseDocument": (text) => parseDocument(text, { uniqueKeys: true }).toJS(),
};

interface Case {
  file: string;
  readers: Reader[];
}

function openapiOfSize(megabytes: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const operation = (i: number) => ({
    operationId: `getThing${i}`,
    summary: `Get thing number ${i} by its identifier`,
    parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    responses: {
      "200": {
        description: "The thing, with every field the service keeps about it.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
      },
      "404": { description: "Not found" },
    },
  });
  const perOperation = stringify({ "/things/0/{id}": { get: operation(0) } }).length;
  const count = Math.round((megabytes * 1024 * 1024) / perOperation);
  for (let i = 0; i < count; i++) paths[`/things/${i}/{id}`] = { get: operation(i) };
  return {
    openapi: "3.1.0",
    info: { title: "Big API", version: "1.0.0" },
    paths,
    components: { schemas: { Thing: { type: "object", properties: { id: { type: "string" } } } } },
  };
}

function flatMap(keys: number): Record<string, unknown> {
  const map: Record<string, string> = {};
  for (let i = 0; i < keys; i++) map[`key-${i}`] = `value ${i}`;
  return { openapi: "3.1.0", info: { title: "Flat", version: "1" }, paths: {}, "x-map": map };
}

function prepareInputs(): Case[] {
  fs.mkdirSync(ROOT, { recursive: true });
  const write = (name: string, make: () => string) => {
    const file = path.join(ROOT, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, make());
    return file;
  };
  const yamlAndJson = ["ours", "js-yaml"] as Reader[];
  const spec16 = () => openapiOfSize(16);
  return [
    {
      file: write("spec-1.4mb.yaml", () => stringify(openapiOfSize(1.4))),
      readers: [...yamlAndJson, "yaml parseDocument"],
    },
    { file: write("spec-8mb.yaml", () => stringify(openapiOfSize(8))), readers: yamlAndJson },
    { file: write("spec-16mb.yaml", () => stringify(spec16())), readers: yamlAndJson },
    {
      file: write("spec-16mb.json", () => JSON.stringify(spec16(), null, 2)),
      readers: ["ours", "ours, JSON check", "JSON.parse"],
    },
    {
      file: write("map-5k.yaml", () => stringify(flatMap(5_000))),
      readers: [...yamlAndJson, "yaml parseDocument"],
    },
    { file: write("map-50k.yaml", () => stringify(flatMap(50_000))), readers: yamlAndJson },
    { file: write("map-100k.yaml", () => stringify(flatMap(100_000))), readers: yamlAndJson },
  ];
}

/** Child: read `file` with `reader` RUNS times; print the median in ms and the peak RSS in MiB. */
function measure(file: string, reader: Reader): void {
  const bytes = fs.readFileSync(file);
  const text = bytes.toString("utf8");
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    readers[reader](text, file, bytes);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  console.log(JSON.stringify({ median, peakMiB: process.resourceUsage().maxRSS / 1024 }));
}

function main(): void {
  const [flag, file, reader] = process.argv.slice(2);
  if (flag === "--measure" && file && reader) {
    measure(file, reader as Reader);
    return;
  }

  const cases = prepareInputs();
  console.log(`Reading files as discovery does; median of ${RUNS} reads, each reader in its own process.\n`);
  console.log("| File | Size | Reader | Median | MB/s | ours ÷ this | Peak RSS |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const { file, readers: chosen } of cases) {
    const megabytes = fs.statSync(file).size / 1_000_000;
    let ours: number | undefined;
    for (const reader of chosen) {
      const out = execFileSync(process.execPath, [here, "--measure", file, reader], {
        encoding: "utf8",
        env: { ...process.env, BENCH_READ_RUNS: String(RUNS) },
      });
      const { median, peakMiB } = JSON.parse(out.trim().split("\n").at(-1) as string) as {
        median: number;
        peakMiB: number;
      };
      results.push({ file, reader, median });
      if (reader === "ours") ours = median;
      const ratio = reader === "ours" || ours === undefined ? "—" : `${(ours / median).toFixed(2)}×`;
      const speed = (megabytes / (median / 1000)).toFixed(1);
      console.log(
        `| ${path.basename(file)} | ${megabytes.toFixed(1)} MB | ${reader} | ${median.toFixed(0)} ms | ${speed} | ${ratio} | ${peakMiB.toFixed(0)} MiB |`,
      );
    }
  }
  linearity();
}

const results: { file: string; reader: Reader; median: number }[] = [];

/** Time per byte of the larger input over the smaller, for our reader: 1.0 is linear. */
function linearity(): void {
  const perByte = (name: string) => {
    const file = path.join(ROOT, name);
    const median = results.find((r) => r.file === file && r.reader === "ours")?.median ?? Number.NaN;
    return median / fs.statSync(file).size;
  };
  console.log(
    `\nLinearity of our reader (time per byte, larger ÷ smaller; 1.0 = linear): 16 MB ÷ 8 MB spec ${(perByte("spec-16mb.yaml") / perByte("spec-8mb.yaml")).toFixed(2)}, 100k ÷ 50k-key map ${(perByte("map-100k.yaml") / perByte("map-50k.yaml")).toFixed(2)}, 100k ÷ 5k-key map ${(perByte("map-100k.yaml") / perByte("map-5k.yaml")).toFixed(2)}.`,
  );
}

main();
