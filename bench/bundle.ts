/**
 * Bundling benchmark on a real split spec: DigitalOcean's public API description (2,850 files referenced
 * from its root, test/fixtures/digitalocean-openapi.tar.gz), bundled
 *
 * - by `bundleSpec` in process, warm (as the action runs it after discovery);
 * - by `bundleSpec` as a cold one-shot process, built with esbuild like `dist/` (bench/bundle-entry.ts);
 * - by the built action itself (`dist/index.js`, `mode: check`, run as the GitHub runner runs it:
 *   process start, inputs, discovery of the root, validation, bundling, summary); `npm run build` first;
 * - and, as the baseline, by `redocly bundle` (@redocly/cli, a devDependency) as a whole process.
 *
 * Runs are interleaved (one of each per round) so that a busy machine slows every row alike. Prints
 * medians, the ratio to redocly, the peak RSS of each process and the size of each bundle.
 * Run with `npx node bench/bundle.ts [rounds] [--quick]` (default 7 rounds, `--quick` 3). Prints `BENCH`
 * rows (bench/report.ts): the built action's whole check run of the root against `redocly bundle`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { load } from "js-yaml";
import { repositoryRoot, runActionLikeRunner } from "../harness/runner/action-runner.ts";
import { bundleSpec } from "../src/core/bundling/index.ts";
import { actionEntry, median, quick, reportRow, runsArgument } from "./report.ts";

const rounds = Math.max(3, runsArgument(quick ? 3 : 7));
const fixture = path.join(repositoryRoot, "test", "fixtures", "digitalocean-openapi.tar.gz");
const rootRelative = "specification/DigitalOcean-public.v2.yaml";
const redoclyCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
  "bin",
  "cli.js",
);
const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
const builtAction = path.join(repositoryRoot, actionEntry);

interface Sample {
  ms: number;
  peakMiB?: number;
}

/** A `--import` hook that reports the process's peak RSS on stderr as it exits. */
function writeRssHook(into: string): string {
  const hook = path.join(into, "peak-rss.mjs");
  writeFileSync(
    hook,
    'process.on("exit", () => process.stderr.write("\\npeak-rss-kib " + process.resourceUsage().maxRSS + "\\n"));\n',
  );
  return pathToFileURL(hook).href;
}

const peakOf = (stderr: string) => {
  const match = /peak-rss-kib (\d+)/.exec(stderr);
  return match ? Number(match[1]) / 1024 : undefined;
};

/** Runs `node --import <hook> …args` to its end: wall time and peak RSS. */
function timeProcess(args: string[], hook: string): Sample {
  const start = performance.now();
  const run = spawnSync(process.execPath, ["--import", hook, ...args], {
    env: quiet,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${args.join(" ")} failed (${run.status}):\n${run.stderr}`);
  const peakMiB = peakOf(run.stderr);
  return peakMiB === undefined ? { ms } : { ms, peakMiB };
}

/** The built action run as the runner runs it, in a workspace holding only the spec: wall time, peak RSS. */
async function timeAction(workspace: string, inputs: Record<string, string>, hook: string): Promise<Sample> {
  const start = performance.now();
  const run = await runActionLikeRunner({
    entry: actionEntry,
    workspace,
    inputs,
    env: { GITHUB_REPOSITORY: "digitalocean/openapi" },
    nodeArgs: ["--import", hook],
  });
  const ms = performance.now() - start;
  if (run.exitCode !== 0) throw new Error(`the action failed:\n${run.stdout}\n${run.stderr}`);
  const peakMiB = peakOf(run.stderr);
  return peakMiB === undefined ? { ms } : { ms, peakMiB };
}

/** Builds bench/bundle-entry.ts with esbuild into `into`, as scripts/build.mjs builds dist/; returns the built script. */
async function buildEntry(into: string): Promise<string> {
  const out = path.join(into, "bundle-cli");
  const entry = fileURLToPath(new URL("./bundle-entry.ts", import.meta.url));
  await build({
    entryPoints: [entry],
    outfile: path.join(out, "index.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    minify: true,
    logLevel: "error",
    banner: { js: `import{createRequire as __r}from"node:module";const require=__r(import.meta.url);` },
  });
  writeFileSync(path.join(out, "package.json"), '{ "type": "module" }\n');
  return path.join(out, "index.js");
}

const scratch = mkdtempSync(path.join(tmpdir(), "bundle-bench-"));
try {
  const workspace = path.join(scratch, "digitalocean");
  mkdirSync(workspace);
  execFileSync("tar", ["-xzf", fixture, "-C", workspace]);
  const root = path.join(workspace, rootRelative);
  const hook = writeRssHook(scratch);
  const builtEntry = await buildEntry(scratch);
  const redoclyVersion = execFileSync(process.execPath, [redoclyCli, "--version"], { env: quiet })
    .toString()
    .trim();
  const haveAction = existsSync(builtAction);

  const first = await bundleSpec(root, { workspace });
  const redoclyOut = path.join(scratch, "redocly.yaml");
  const oursOut = path.join(scratch, "ours.yaml");

  const samples: Record<string, Sample[]> = {
    inProcess: [],
    cold: [],
    action: [],
    actionScan: [],
    redocly: [],
  };
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await bundleSpec(root, { workspace });
    samples.inProcess?.push({ ms: performance.now() - start });
    samples.cold?.push(timeProcess([builtEntry, root, workspace, oursOut], hook));
    if (haveAction) {
      samples.action?.push(await timeAction(workspace, { mode: "check", files: rootRelative }, hook));
      samples.actionScan?.push(await timeAction(workspace, { mode: "check" }, hook));
    }
    samples.redocly?.push(timeProcess([redoclyCli, "bundle", root, "-o", redoclyOut], hook));
  }

  const redocly = median(samples.redocly?.map((s) => s.ms) ?? []);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const versus = (ms: number) =>
    ms <= redocly ? `${(redocly / ms).toFixed(2)}× faster` : `${(ms / redocly).toFixed(2)}× slower`;
  const peak = (rows: Sample[] | undefined) => {
    const values = (rows ?? []).flatMap((s) => (s.peakMiB === undefined ? [] : [s.peakMiB]));
    return values.length > 0 ? `${median(values).toFixed(0)} MiB` : "";
  };
  const row = (label: string, rows: Sample[] | undefined, baseline = false) => {
    const ms = median(rows?.map((s) => s.ms) ?? []);
    console.log(`| ${label} | ${seconds(ms)} | ${baseline ? "1" : versus(ms)} | ${peak(rows)} |`);
  };

  const components = (file: string) => {
    const document = load(readFileSync(file, "utf8")) as { components?: Record<string, object> };
    return Object.entries(document.components ?? {})
      .map(([group, entries]) => `${Object.keys(entries).length} ${group}`)
      .join(", ");
  };
  console.log(
    `Bundling DigitalOcean's API description (${first.files.length} files), median of ${rounds} interleaved rounds, Node ${process.version}\n`,
  );
  console.log("| Bundler | Median | vs redocly | Peak RSS |");
  console.log("| --- | ---: | ---: | ---: |");
  row("`bundleSpec` in process, warm (as the action runs it after discovery)", samples.inProcess);
  row("`bundleSpec` as a one-shot process, built with esbuild like `dist/`", samples.cold);
  if (haveAction) {
    row("the built action, `mode: check`, whole run, `files:` the root", samples.action);
    row("the built action, `mode: check`, whole run, discovery of all 2,907 files", samples.actionScan);
  }
  row(`\`redocly bundle\` (@redocly/cli ${redoclyVersion}), whole process`, samples.redocly, true);
  console.log(
    `\nBundle size: ours ${statSync(oursOut).size} bytes (${components(oursOut)}); ` +
      `redocly ${statSync(redoclyOut).size} bytes (${components(redoclyOut)}).`,
  );
  if (!haveAction) console.log("dist/index.js is missing: run `npm run build` to time the whole action.");
  const cold = median(samples.cold?.map((s) => s.ms) ?? []);
  const action = median(samples.action?.map((s) => s.ms) ?? []);
  const scan = median(samples.actionScan?.map((s) => s.ms) ?? []);
  const largestPeak = (rows: Sample[] | undefined) => {
    const values = (rows ?? []).flatMap((s) => (s.peakMiB === undefined ? [] : [s.peakMiB]));
    return values.length > 0 ? Math.max(...values) : null;
  };
  const baseline = `\`redocly bundle\` ${redoclyVersion}, whole process`;
  if (haveAction) {
    reportRow({
      name: "bundle-2850-check",
      median_ms: action,
      baseline_name: baseline,
      baseline_ms: redocly,
      peak_rss_mib: largestPeak(samples.action),
    });
  }
  reportRow({
    name: "bundle-2850-one-shot",
    median_ms: cold,
    baseline_name: baseline,
    baseline_ms: redocly,
    peak_rss_mib: largestPeak(samples.cold),
  });
  const met = cold < redocly && (!haveAction || (action < redocly && scan < redocly));
  console.log(
    `\nTarget (faster than \`redocly bundle\` as a whole process, the whole action run included): ${met ? "met" : "NOT met"}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
