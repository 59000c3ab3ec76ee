/**
 * What the overlay implementation costs and how well it follows RFC 9535 (docs/design/overlays.md):
 *
 * 1. compliance: the JSONPath Compliance Test Suite (cts.json of jsonpath-standard/jsonpath-compliance-
 *    test-suite, read from a bare clone at `--cts-repo`, default /work/.mirror/…/repo) run against json-p3,
 *    and against the other candidates when `--candidates <node_modules folder>` holds them
 *    (jsonpath-rfc9535, jsonpathly, jsonpath-plus: `npm install` them into a scratch folder);
 * 2. speed: typical overlay targets, a whole overlay and remove-internal on Stripe's 4 MB spec3.yaml
 *    (stripe/openapi at 63a6746, from the bare clone at `--stripe-repo`), median of 5;
 * 3. size: dist/ as scripts/build.mjs builds it (same esbuild options, into a temporary folder), and the
 *    bytes json-p3 and the shaping code take in it.
 *
 *   npx node bench/overlays.ts [--candidates .scratch/overlay-eval/node_modules] [--cts-repo DIR] [--stripe-repo DIR]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { load } from "js-yaml";
import { JSONPathEnvironment } from "json-p3";
import { applyOverlay, JSONPATH, parseOverlay } from "../src/core/shaping/overlay.ts";
import { danglingRefs, removeInternal } from "../src/core/shaping/remove-internal.ts";
import { type ComplianceTest, median, passedTests } from "./jsonpath-measures.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string, fallback?: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const CTS_REPO = arg(
  "--cts-repo",
  "/work/.mirror/jsonpath-standard+jsonpath-compliance-test-suite/repo",
) as string;
const STRIPE_REPO = arg("--stripe-repo", "/work/.mirror/stripe+openapi/repo") as string;
const STRIPE = { commit: "63a674638635c68de26b9f3add13e58198f4df44", file: "openapi/spec3.yaml" };
const candidatesDir = arg("--candidates");

type Query = (document: unknown, path: string) => number;
const env = new JSONPathEnvironment({ strict: true });
const implementations: Record<string, { values: (doc: unknown, path: string) => unknown[]; count: Query }> = {
  "json-p3": {
    values: (doc, p) => env.query(p, doc as never).values(),
    count: (doc, p) => env.query(p, doc as never).nodes.length,
  },
  // What overlays run: json-p3 with re2js patterns and a deeper `..` (docs/design/overlays.md, the end).
  "json-p3, the overlays' environment": {
    values: (doc, p) => JSONPATH.query(p, doc as never).values(),
    count: (doc, p) => JSONPATH.query(p, doc as never).nodes.length,
  },
};
if (candidatesDir) {
  // Resolved as the folder's own package would resolve them.
  const from = createRequire(path.resolve(candidatesDir, "..", "package.json"));
  const rfc = from("jsonpath-rfc9535");
  implementations["jsonpath-rfc9535"] = {
    values: (doc, p) => rfc.query(doc, p),
    count: (doc, p) => rfc.paths(doc, p).length,
  };
  const jpl = from("jsonpathly");
  implementations.jsonpathly = {
    values: (doc, p) => jpl.query(doc, p, { returnArray: true }),
    count: (doc, p) => jpl.paths(doc, p).length,
  };
  const { JSONPath } = from("jsonpath-plus");
  implementations["jsonpath-plus"] = {
    values: (doc, p) => JSONPath({ path: p, json: doc as object, wrap: true, eval: false }),
    count: (doc, p) => JSONPath({ path: p, json: doc as object, resultType: "path", eval: false }).length,
  };
}

function compliance(): string[] {
  const text = execFileSync("git", ["-C", CTS_REPO, "show", "HEAD:cts.json"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const commit = execFileSync("git", ["-C", CTS_REPO, "rev-parse", "--short", "HEAD"], {
    encoding: "utf8",
  }).trim();
  const tests = JSON.parse(text).tests as ComplianceTest[];
  const lines = [`JSONPath Compliance Test Suite (commit ${commit}, ${tests.length} tests):`, ""];
  lines.push("| implementation | passed |", "| --- | --- |");
  for (const [name, impl] of Object.entries(implementations))
    lines.push(`| ${name} | ${passedTests(tests, impl.values)} / ${tests.length} |`);
  return lines;
}

const QUERIES = [
  "$.paths.*.*",
  "$.paths.*[?@.operationId == 'GetCustomers']",
  "$.components.schemas.*.properties[?@.type == 'string']",
  "$.paths..responses['default']",
  "$..[?@['x-stripeResource']]",
];

const OVERLAY = `overlay: 1.0.0
info: { title: bench, version: '1' }
actions:
  - target: $.info
    update: { x-page-title: Stripe API }
  - target: $.paths[?@.post.operationId == 'PostCustomers']
    update: { x-page-icon: user }
  - target: $.paths['/v1/customers/{customer}'][?@.operationId]
    update: { x-internal: true }
  - target: $.paths..responses['default']
    update: { x-page-description: The error }
`;

function speed(): string[] {
  const text = execFileSync("git", ["-C", STRIPE_REPO, "show", `${STRIPE.commit}:${STRIPE.file}`], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const document = load(text);
  const lines = [
    `Stripe ${STRIPE.file} at ${STRIPE.commit.slice(0, 7)} (${(text.length / 1e6).toFixed(1)} MB), median of 5, ms:`,
    "",
    `| target | nodes | ${Object.keys(implementations).join(" | ")} |`,
    `| --- | --- | ${Object.keys(implementations)
      .map(() => "---")
      .join(" | ")} |`,
  ];
  for (const query of QUERIES) {
    const cells = Object.values(implementations).map((impl) => {
      try {
        return median(() => impl.count(document, query)).toFixed(1);
      } catch (error) {
        return `error: ${(error as Error).message.slice(0, 30)}`;
      }
    });
    lines.push(
      `| \`${query}\` | ${implementations["json-p3"]?.count(document, query)} | ${cells.join(" | ")} |`,
    );
  }
  const overlay = parseOverlay(OVERLAY, "bench.yaml");
  lines.push(
    "",
    `- structuredClone of the document (what shaping starts with): ${median(() => structuredClone(document)).toFixed(0)} ms`,
    `- the 4-action overlay above: ${median(() => applyOverlay(structuredClone(document), overlay, () => {})).toFixed(0)} ms (clone included)`,
    `- overlay, then remove-internal: ${median(() => removeInternal(applyOverlay(structuredClone(document), overlay, () => {}))).toFixed(0)} ms (clone included)`,
    `- danglingRefs (run twice by each shaping): ${median(() => danglingRefs(document)).toFixed(0)} ms`,
  );
  return lines;
}

async function sizes(): Promise<string[]> {
  const out = mkdtempSync(path.join(tmpdir(), "overlays-bench-dist-"));
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: { index: "src/index.ts", cli: "src/hosts/cli/main.ts" },
      outdir: out,
      entryNames: "[name]",
      chunkNames: "chunks/[name]-[hash]",
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node22",
      minify: true,
      charset: "utf8",
      legalComments: "none",
      metafile: true,
      logLevel: "error",
    });
    let total = 0;
    let jsonp3 = 0;
    let shaping = 0;
    for (const output of Object.values(result.metafile.outputs)) {
      total += output.bytes;
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        if (input.includes("node_modules/json-p3/")) jsonp3 += bytesInOutput;
        else if (
          /src\/core\/shaping\/(overlay|audiences|remove-internal)\.ts$|src\/core\/sync\/(shaped|targets)\.ts$|src\/settings\/shaping-config\.ts$/.test(
            input,
          )
        )
          shaping += bytesInOutput;
      }
    }
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    return [
      `dist/ as scripts/build.mjs builds it (esbuild, minified, ES module chunks): ${kb(total)} of code in all;`,
      `json-p3 takes ${kb(jsonp3)} of it, the shaping code (overlay, remove-internal, audiences, their wiring) ${kb(shaping)}.`,
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const report = [...compliance(), "", ...speed(), "", ...(await sizes())];
console.log(report.join("\n"));
