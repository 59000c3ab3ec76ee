/**
 * `gitbook-openapi sync` as a shell runs it, against the emulator, with specs whose overlays once held
 * or aborted the whole run (issue 26, items 5 and 6): a pattern that backtracks for hours in JavaScript's
 * RegExp on a 3,000-character description, a 3,000-segment target, a document 500 levels deep and a copy
 * bomb split over overlay files. The run ends; the valid specs are published, the others fail with
 * their place. Before, the run never ended (the event loop was blocked: neither `--timeout` nor SIGTERM
 * acted), or ended on a stack overflow with nothing uploaded after it.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import type { SpecResult } from "../../src/core/sync/result.ts";
import { CLI_SOURCE, type CliRun } from "./run-cli.ts";

const TOKEN = "sync-shaping-bounds-token-5c1e";
const ORG = "demo-org";

const spec = (title: string, extra = "") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\n  description: ${"a".repeat(3000)}\npaths: {}\n${extra}`;

const overlay = (actions: string, version = "1.0.0") =>
  `overlay: ${version}\ninfo: { title: t, version: '1' }\nactions:\n${actions}`;

function deepSchema(levels: number): string {
  let schema = "{type: string}";
  for (let i = 0; i < levels; i++) schema = `{type: object, properties: {a: ${schema}}}`;
  return schema;
}

/** The specs whose overlays pass a bound. */
const BOUNDED = `  specs/long.yaml:
    overlays: [overlays/long.yaml]
  specs/deep.yaml:
    overlays: [overlays/descriptions.yaml]
  specs/copies.yaml:
    overlays: [overlays/copy.yaml, overlays/copy.yaml, overlays/copy.yaml]
`;

const FILES: Record<string, string> = {
  "specs/pets.yaml": spec("Pets"),
  "specs/slow.yaml": spec("Slow"),
  "specs/long.yaml": spec("Long"),
  "specs/deep.yaml": spec("Deep", `components:\n  schemas:\n    Deep: ${deepSchema(250)}\n`),
  "specs/copies.yaml": spec(
    "Copies",
    `x-big: {text: ${"x".repeat(1024 * 1024)}}\nx-t: [${Array.from({ length: 12 }, () => "{}").join(", ")}]\n`,
  ),
  "overlays/backtracking.yaml": overlay(
    `  - target: "$.info[?match(@, '.*.*.*.*.*.*Z')]"\n    update: { x-a: 1 }\n  - target: "$.info[?match(@, '(a*){9}Z')]"\n    update: { x-b: 1 }\n  - target: "$[?search(@.title, 'Slow')]"\n    update: { x-page-title: Slow API }\n`,
  ),
  "overlays/long.yaml": overlay(`  - target: $${".info".repeat(3000)}\n    update: { x-a: 1 }\n`),
  "overlays/descriptions.yaml": overlay("  - target: $..description\n    update: { x-a: 1 }\n"),
  "overlays/copy.yaml": overlay(
    "  - target: $['x-t'][*]\n    copy: $['x-big']\n  - target: $['x-t'][*].text\n    remove: true\n",
    "1.1.0",
  ),
  "gitbook-openapi.yaml": `specs:
  specs/slow.yaml:
    overlays: [overlays/backtracking.yaml]
${BOUNDED}`,
};

let emulator: RunningEmulator;
const workspaces: string[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
  for (const workspace of workspaces) await rm(workspace, { recursive: true, force: true });
});

async function workspaceOf(files: Record<string, string>): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), "sync-shaping-bounds-"));
  workspaces.push(workspace);
  await mkdir(path.join(workspace, "specs"));
  await mkdir(path.join(workspace, "overlays"));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(workspace, file), text);
  return workspace;
}

/**
 * `sync --json` as a new process with the run's own `--timeout`; killed with SIGKILL (which a blocked
 * event loop cannot ignore) if it is still running well past it.
 */
function sync(workspace: string, args: string[], killAfterMs: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_SOURCE, "sync", "--workspace", workspace, "--json", ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        NO_COLOR: "1",
        GITBOOK_TOKEN: TOKEN,
        GITBOOK_API_URL: emulator.baseUrl,
        GITBOOK_ORGANIZATION: ORG,
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: killAfterMs,
      killSignal: "SIGKILL",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("sync with hostile overlays", () => {
  it("ends, publishes the valid specs and fails each hostile one with its place", async () => {
    const run = await sync(await workspaceOf(FILES), ["--timeout", "30"], 75_000);
    expect(run.code, run.stderr).toBe(1);
    const results = JSON.parse(run.stdout) as SpecResult[];
    const byFile = new Map(results.map((result) => [result.file, result]));
    expect(results.map((r) => [r.file, r.status])).toEqual([
      ["specs/copies.yaml", "failed"],
      ["specs/deep.yaml", "failed"],
      ["specs/long.yaml", "failed"],
      ["specs/pets.yaml", "published"],
      ["specs/slow.yaml", "published"],
    ]);
    // The patterns ran, with RFC 9535's results: the title matched, the backtracking ones did not.
    expect(emulator.getSpec(ORG, "specs-slow")).toBeDefined();
    expect(run.stderr).toContain(
      "overlays/backtracking.yaml:6: action 2's target $.info[?match(@, '(a*){9}Z')] selects nothing",
    );
    expect(byFile.get("specs/long.yaml")?.errors.join("\n")).toMatch(
      /overlays\/long\.yaml:4:13: .*the target of action 1, "\$\.info\.info.*…", has 3,000 segments/,
    );
    expect(byFile.get("specs/deep.yaml")?.errors.join("\n")).toMatch(
      /the document nests deeper than 200 levels at \$\.components\.schemas\.Deep\.properties\.a/,
    );
    expect(byFile.get("specs/copies.yaml")?.errors.join("\n")).toMatch(
      /overlays\/copy\.yaml:4: .*this spec's overlays add about 36\.\d MiB, over the 32\.0 MiB limit for one spec/,
    );
    expect(emulator.getSpec(ORG, "specs-pets")).toBeDefined();
  }, 120_000);

  it("goes on past a spec whose overlay meets a document 500 levels deep (it once stopped the run)", async () => {
    // Without the backtracking spec: before, `$..description` on the deep document threw json-p3's
    // recursion error out of the run, and no spec was uploaded.
    const { "specs/slow.yaml": _slow, ...files } = FILES;
    const workspace = await workspaceOf({ ...files, "gitbook-openapi.yaml": `specs:\n${BOUNDED}` });
    const run = await sync(workspace, ["--slug-prefix", "deep", "--timeout", "30"], 75_000);
    const results = JSON.parse(run.stdout) as SpecResult[];
    expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([
      ["specs/copies.yaml", "failed", "SHAPING_ERROR"],
      ["specs/deep.yaml", "failed", "SHAPING_ERROR"],
      ["specs/long.yaml", "failed", "SHAPING_ERROR"],
      ["specs/pets.yaml", "published", null],
    ]);
    expect(emulator.getSpec(ORG, "deep-specs-pets")).toBeDefined();
    expect(run.code).toBe(1);
  }, 120_000);
});
