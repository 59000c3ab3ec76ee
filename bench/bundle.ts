/**
 * Bundling benchmark: a spec split into 500 files, bundled by our `bundleSpec` and by `redocly bundle`
 * (@redocly/cli, installed into a temporary folder, never into our package.json). Run with
 * `npx node bench/bundle.ts [runs]`. Prints medians, the ratio and whether we beat redocly.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleSpec } from "../src/bundling/index.ts";

const runs = Math.max(5, Number(process.argv[2] ?? 7));
const fileCount = 500;
const redoclyPrefix = join(tmpdir(), "redocly-cli-bench");
const redoclyCli = join(redoclyPrefix, "node_modules", "@redocly", "cli", "bin", "cli.js");
const quietRedocly = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

/** Writes a root, 100 path files, 300 schemas (each referring to its neighbours: cycles across files),
 * 50 parameter files and 49 response files (JSON, with fragments). */
function writeSpec(root: string): string {
  const files: Record<string, string> = {};
  const pathCount = 100;
  const schemaCount = 300;
  const parameterCount = 50;
  const responseCount = fileCount - 1 - pathCount - schemaCount - parameterCount;
  for (let i = 0; i < schemaCount; i++) {
    files[`schemas/group${i % 10}/schema${i}.yaml`] = [
      "type: object",
      "properties:",
      "  id: { type: string, format: uuid }",
      `  name: { type: string, description: "Schema number ${i}" }`,
      "  next:",
      `    $ref: ../group${(i + 1) % 10}/schema${(i + 1) % schemaCount}.yaml`,
      "  previous:",
      `    $ref: "../group${(i + schemaCount - 1) % 10}/schema${(i + schemaCount - 1) % schemaCount}.yaml#/properties/name"`,
      "",
    ].join("\n");
  }
  for (let i = 0; i < parameterCount; i++) {
    files[`parameters/p${i}.json`] = JSON.stringify({
      query: { name: `q${i}`, in: "query", schema: { $ref: "#/definitions/Q" } },
      definitions: { Q: { type: "integer", minimum: i } },
    });
  }
  for (let i = 0; i < responseCount; i++) {
    files[`responses/r${i}.json`] = JSON.stringify({
      ok: {
        description: `Response ${i}`,
        content: { "application/json": { schema: { $ref: `../schemas/group${i % 10}/schema${i}.yaml` } } },
      },
    });
  }
  const rootLines = ["openapi: 3.1.0", "info:", "  title: Generated", "  version: 1.0.0", "paths:"];
  for (let i = 0; i < pathCount; i++) {
    files[`paths/resource${i}.yaml`] = [
      "get:",
      `  operationId: get${i}`,
      "  parameters:",
      `    - $ref: ../parameters/p${i % parameterCount}.json#/query`,
      "  responses:",
      '    "200":',
      `      $ref: ../responses/r${i % responseCount}.json#/ok`,
      "post:",
      `  operationId: post${i}`,
      "  requestBody:",
      "    content:",
      "      application/json:",
      "        schema:",
      `          $ref: ../schemas/group${(i * 3) % 10}/schema${(i * 3) % schemaCount}.yaml`,
      "  responses:",
      '    "201": { description: Created }',
      "",
    ].join("\n");
    rootLines.push(`  /resource${i}:`, `    $ref: ./paths/resource${i}.yaml`);
  }
  files["openapi.yaml"] = `${rootLines.join("\n")}\n`;
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, relative)), { recursive: true });
    writeFileSync(join(root, relative), text);
  }
  return join(root, "openapi.yaml");
}

function ensureRedocly(): void {
  if (existsSync(redoclyCli)) return;
  console.error(`Installing @redocly/cli into ${redoclyPrefix} …`);
  execFileSync(
    "npm",
    ["install", "--prefix", redoclyPrefix, "--no-audit", "--no-fund", "--ignore-scripts", "@redocly/cli"],
    {
      stdio: "ignore",
    },
  );
}

/** Builds bench/bundle-entry.ts with ncc into the temp folder; returns the built script. */
function buildEntryWithNcc(into: string): string {
  const out = join(into, "bundle-cli");
  const entry = fileURLToPath(new URL("./bundle-entry.ts", import.meta.url));
  const ncc = fileURLToPath(new URL("../node_modules/@vercel/ncc/dist/ncc/cli.js", import.meta.url));
  execFileSync(process.execPath, [ncc, "build", entry, "-o", out, "--quiet"], { stdio: "ignore" });
  writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
  return join(out, "index.js");
}

async function median(measure: () => Promise<void> | void): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await measure();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

const workspace = mkdtempSync(join(tmpdir(), "bundle-bench-"));
try {
  const root = writeSpec(workspace);
  ensureRedocly();
  const redoclyVersion = execFileSync(process.execPath, [redoclyCli, "--version"], { env: quietRedocly })
    .toString()
    .trim();

  const first = await bundleSpec(root, { workspace });
  if (first.files.length !== fileCount)
    throw new Error(`expected ${fileCount} files, bundled ${first.files.length}`);

  const ours = await median(async () => {
    await bundleSpec(root, { workspace });
  });
  const ourEntry = pathToFileURL(fileURLToPath(new URL("../src/bundling/index.ts", import.meta.url))).href;
  const oursCold = await median(() => {
    const script = `const { bundleSpec } = await import(${JSON.stringify(ourEntry)}); await bundleSpec(${JSON.stringify(root)}, { workspace: ${JSON.stringify(workspace)} });`;
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
  });
  const builtEntry = buildEntryWithNcc(workspace);
  const oursBuiltCold = await median(() => {
    execFileSync(process.execPath, [builtEntry, root, workspace], { stdio: "ignore" });
  });
  const redocly = await median(() => {
    execFileSync(process.execPath, [redoclyCli, "bundle", root, "-o", join(workspace, "redocly-out.yaml")], {
      stdio: "ignore",
      env: quietRedocly,
    });
  });

  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const versus = (value: number) =>
    value <= redocly ? `${(redocly / value).toFixed(1)}× faster` : `${(value / redocly).toFixed(1)}× slower`;
  console.log(`Bundling ${fileCount} files, median of ${runs} runs, Node ${process.version}\n`);
  console.log("| Bundler | Median | vs redocly CLI |");
  console.log("| --- | ---: | ---: |");
  console.log(`| bundleSpec (in process, as the action runs it) | ${ms(ours)} | ${versus(ours)} |`);
  console.log(
    `| bundleSpec (new Node process, bundled with ncc as the action ships) | ${ms(oursBuiltCold)} | ${versus(oursBuiltCold)} |`,
  );
  console.log(
    `| bundleSpec (new Node process, TypeScript sources loaded unbundled) | ${ms(oursCold)} | ${versus(oursCold)} |`,
  );
  console.log(`| redocly bundle (@redocly/cli ${redoclyVersion}) | ${ms(redocly)} | 1.0× |`);
  const met = oursBuiltCold < redocly && ours < redocly;
  console.log(`\nTarget (faster than redocly): ${met ? "met" : "NOT met"}`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
