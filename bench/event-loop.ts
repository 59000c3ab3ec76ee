/**
 * How long each local step of one spec blocks the main thread's event loop (issue 26: "the run's clock
 * and signals always win"). While a step runs synchronously no timer fires and no signal handler runs,
 * so the longest block is the longest a `timeout` or a SIGTERM can wait to be acted on.
 *
 * Specs: Stripe's 4.2 MB OpenAPI 3.0 description and Kubernetes' 3.8 MB Swagger 2.0 one (single files,
 * test/fixtures/real-specs), DigitalOcean's split description (its root references 2,849 files,
 * test/fixtures/digitalocean-openapi.tar.gz), Docker's 0.5 MB Swagger 2.0 one, and a generated 250 KiB
 * YAML spec, the largest the main thread still prepares itself (src/core/run/spec-work.ts). For each: the time of every synchronous step (read and parse,
 * validation, the bundle's own validation, remove-internal, the extension checks, writing the shaped
 * text, the publish record), the longest block within bundling (async, measured by a probe on the event
 * loop), the longest block of the whole of `prepareFile` without shaping in process (what the main
 * thread still does for small specs), and with shaping (remove-internal), in process and in the
 * preparation's worker (src/core/prepare/prepare-worker.ts), where the main thread only waits.
 *
 * Run with `npx node bench/event-loop.ts [runs]` (default 3; the median of each is printed).
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { commandLineGit } from "../src/adapters/git/base-tree.ts";
import { bundleSpec } from "../src/core/bundling/index.ts";
import {
  type DiscoveredSpec,
  discoverSpecs,
  type LoadedSpec,
  loadSpec,
} from "../src/core/discovery/index.ts";
import { silentLogger } from "../src/core/logger.ts";
import { withRecord } from "../src/core/ownership/ownership.ts";
import { prepareFile } from "../src/core/prepare/prepare.ts";
import { shapeDocument, shapedText, workspaceOverlays } from "../src/core/shaping/audiences.ts";
import { checkGitBookExtensions } from "../src/core/shaping/extensions/check.ts";
import {
  loadStructuralCheck,
  validateBundledStructure,
  validateSpecDocument,
} from "../src/core/validation/index.ts";

/** The workers, when this checkout has them (so that the same script measures before and after). */
const pool = await import("../src/core/prepare/prepare-worker.ts").then(
  (module) => new module.PreparationPool({ size: 1 }),
  () => undefined,
);
const runs = Math.max(1, Number(process.argv[2] ?? 3));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = path.join(root, "test", "fixtures");
const scratch = mkdtempSync(path.join(tmpdir(), "event-loop-"));

for (const name of ["moby-swagger.yaml", "stripe-spec3.yaml", "kubernetes-swagger.json"]) {
  const bytes = brotliDecompressSync(readFileSync(path.join(fixtures, "real-specs", `${name}.br`)));
  writeFileSync(path.join(scratch, name), bytes);
}
// The largest spec the main thread still prepares itself (spec-work.ts IN_THREAD_BYTES): 250 KiB of YAML.
const operations: string[] = [];
for (let index = 0; operations.join("").length < 250 * 1024; index++) {
  operations.push(
    `  /things${index}/{id}:\n    get:\n      operationId: getThing${index}\n      description: Reads thing ${index}, with a description long enough to look like a real one.\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n      responses:\n        "200":\n          description: The thing\n          content:\n            application/json:\n              schema: {$ref: "#/components/schemas/Thing"}\n`,
  );
}
writeFileSync(
  path.join(scratch, "generated-250k.yaml"),
  `openapi: 3.0.3\ninfo: {title: Generated, version: "1.0.0"}\npaths:\n${operations.join("")}components:\n  schemas:\n    Thing: {type: object, properties: {id: {type: string}}}\n`,
);
execFileSync("tar", ["-xzf", path.join(fixtures, "digitalocean-openapi.tar.gz"), "-C", scratch]);

const cases = [
  "generated-250k.yaml",
  "moby-swagger.yaml",
  "stripe-spec3.yaml",
  "kubernetes-swagger.json",
  "specification/DigitalOcean-public.v2.yaml",
];

await loadStructuralCheck();
const discovered = await discoverSpecs({
  workspace: scratch,
  git: commandLineGit,
  patterns: cases,
  logger: silentLogger,
});
const byPath = new Map(discovered.specs.map((spec) => [spec.path, spec]));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function timed<T>(into: number[], step: () => T): T {
  const at = performance.now();
  const value = step();
  into.push(performance.now() - at);
  return value;
}

/** The longest the event loop was blocked while `work` ran, in ms. */
async function longestBlock(work: () => Promise<unknown>, total?: number[]): Promise<number> {
  const started = performance.now();
  // A timer every millisecond; the longest gap between two of its turns (from the start) is the block.
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await work();
  total?.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(probe);
  return Math.max(longest, performance.now() - last);
}

const steps = [
  "read+parse",
  "validate",
  "bundle (longest block)",
  "validate bundle",
  "remove-internal",
  "extension checks",
  "shaped text",
  "publish record",
  "prepareFile unshaped, in process (longest block)",
  "prepareFile in process (longest block)",
  "prepareFile in a worker (longest block)",
  "prepareFile in process (total)",
  "prepareFile in a worker (total)",
] as const;

const rows: string[][] = [];
for (const file of cases) {
  const discoveredSpec = byPath.get(file) as DiscoveredSpec;
  const samples = new Map<string, number[]>(steps.map((step) => [step, []]));
  const sample = (step: (typeof steps)[number]) => samples.get(step) as number[];
  for (let run = 0; run < runs; run++) {
    const loaded = timed(sample("read+parse"), () => {
      const outcome = loadSpec(discoveredSpec);
      if (!outcome.ok) throw new Error(outcome.problem.message);
      void outcome.spec.document;
      return outcome.spec;
    }) as LoadedSpec;
    const standalone = loaded.referencesOtherFiles === false;
    timed(sample("validate"), () => validateSpecDocument(loaded, silentLogger, { structure: standalone }));
    let bundled: Awaited<ReturnType<typeof bundleSpec>> | undefined;
    if (!standalone) {
      sample("bundle (longest block)").push(
        await longestBlock(async () => {
          bundled = await bundleSpec(
            loaded.absolutePath,
            { workspace: scratch },
            loaded.text,
            () => loaded.document,
          );
        }),
      );
      const source = bundled?.bundled
        ? { document: bundled.document, referenced: bundled.referenced }
        : undefined;
      timed(sample("validate bundle"), () => validateBundledStructure(loaded, source, silentLogger, {}));
    }
    const document = bundled?.bundled ? bundled.document : loaded.document;
    const shaped = timed(sample("remove-internal"), () =>
      shapeDocument(
        document,
        { overlays: [], removeInternal: true },
        { readOverlay: workspaceOverlays(scratch), logger: silentLogger, specFile: file },
      ),
    );
    timed(sample("extension checks"), () => checkGitBookExtensions(shaped.document));
    const text = timed(sample("shaped text"), () => shapedText(shaped.document, loaded.format));
    timed(sample("publish record"), () =>
      withRecord(text, loaded.format, "owner", file, { slug: "bench", document: () => shaped.document }),
    );
    const options = {
      workspace: scratch,
      sourceUrlFor: undefined,
      owner: "owner",
      shaping: { overlays: [], removeInternal: true },
    };
    const { shaping: _shaping, ...unshaped } = options;
    sample("prepareFile unshaped, in process (longest block)").push(
      await longestBlock(() => prepareFile(discoveredSpec, "slug", unshaped, silentLogger)),
    );
    sample("prepareFile in process (longest block)").push(
      await longestBlock(
        () => prepareFile(discoveredSpec, "slug", options, silentLogger),
        sample("prepareFile in process (total)"),
      ),
    );
    if (pool)
      sample("prepareFile in a worker (longest block)").push(
        await longestBlock(
          () =>
            pool.prepare(discoveredSpec, "slug", options, {
              deadline: Date.now() + 600_000,
              now: Date.now,
              log: silentLogger,
            }),
          sample("prepareFile in a worker (total)"),
        ),
      );
  }
  rows.push([
    `${file} (${(discoveredSpec.bytes / 1e6).toFixed(2)} MB)`,
    ...steps.map((step) => {
      const values = sample(step);
      return values.length === 0 ? "–" : `${Math.round(median(values))} ms`;
    }),
  ]);
}

await pool?.close();
console.log(`Median of ${runs} run(s), on ${process.platform} ${process.version}.\n`);
console.log(`| Step | ${rows.map((row) => row[0]).join(" | ")} |`);
console.log(`| --- | ${rows.map(() => "---:").join(" | ")} |`);
steps.forEach((step, index) => {
  console.log(`| ${step} | ${rows.map((row) => row[index + 1]).join(" | ")} |`);
});
