/**
 * `gitbook-openapi bundle` (and `--audience`) with overlays that once held or broke the command (issue
 * 26, items 5 and 6): patterns that backtrack for hours in JavaScript's RegExp now finish (the command
 * as a process, killed if it hangs); a pattern outside I-Regexp, a 3,000-segment target, a document 500
 * levels deep and a copy bomb split over several overlay files each fail the spec at their place.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI_SOURCE, type CliRun, runCli } from "./run-cli.ts";

const DESCRIPTION = "a".repeat(3000);

const spec = (extra = "") =>
  `openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\n  description: ${DESCRIPTION}\npaths: {}\n${extra}`;

const overlay = (actions: string, version = "1.0.0") =>
  `overlay: ${version}\ninfo: { title: t, version: '1' }\nactions:\n${actions}`;

/** A schema `levels` deep: `properties.a` within `properties.a`… */
function deepSchema(levels: number): string {
  let schema = "{type: string}";
  for (let i = 0; i < levels; i++) schema = `{type: object, properties: {a: ${schema}}}`;
  return schema;
}

const FILES: Record<string, string> = {
  "openapi.yaml": spec(
    // For the copy bomb: a 1 MiB text and twelve places to copy it to.
    `x-big: {text: ${"x".repeat(1024 * 1024)}}\nx-t: [${Array.from({ length: 12 }, () => "{}").join(", ")}]\n`,
  ),
  "deep.yaml": spec(`components:\n  schemas:\n    Deep: ${deepSchema(250)}\n`),
  "overlays/backtracking.yaml": overlay(
    `  - target: "$.info[?match(@, '.*.*.*.*.*.*Z')]"\n    update: { x-a: 1 }\n  - target: "$.info[?match(@, '(a*){9}Z')]"\n    update: { x-b: 1 }\n  - target: "$[?search(@.description, '^a{1000}a*$')]"\n    update: { x-c: 1 }\n`,
  ),
  "overlays/lookahead.yaml": overlay(
    `  - target: $.info\n    update: { x-a: 1 }\n  - target: "$.info[?match(@, '(?=a)a*')]"\n    update: { x-b: 1 }\n`,
  ),
  "overlays/long.yaml": overlay(`  - target: $${".info".repeat(3000)}\n    update: { x-a: 1 }\n`),
  "overlays/descriptions.yaml": overlay("  - target: $..description\n    update: { x-a: 1 }\n"),
  "overlays/copy.yaml": overlay(
    "  - target: $['x-t'][*]\n    copy: $['x-big']\n  - target: $['x-t'][*].text\n    remove: true\n",
    "1.1.0",
  ),
};

const CONFIG = `specs:
  openapi.yaml:
    audiences:
      backtracking: { overlays: [overlays/backtracking.yaml] }
      lookahead: { overlays: [overlays/lookahead.yaml] }
      long: { overlays: [overlays/long.yaml] }
      copies: { overlays: [overlays/copy.yaml, overlays/copy.yaml, overlays/copy.yaml] }
  deep.yaml:
    overlays: [overlays/descriptions.yaml]
`;

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "bundle-shaping-bounds-"));
  await mkdir(path.join(workspace, "overlays"));
  for (const [file, text] of Object.entries(FILES)) await writeFile(path.join(workspace, file), text);
  await writeFile(path.join(workspace, "gitbook-openapi.yaml"), CONFIG);
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The command as a new process, killed (SIGKILL: a blocked event loop ignores SIGTERM) if it hangs. */
function bundleProcess(args: string[], killAfterMs: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_SOURCE, "bundle", ...args], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
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

describe("bundle --audience with patterns that backtrack in JavaScript", () => {
  it("finishes `.*.*.*.*.*.*Z` and `(a*){9}Z` on a 3,000-character description, with their results", async () => {
    // Before: the command was still running after 678 s; it is killed here after 60.
    const run = await bundleProcess(["openapi.yaml", "--audience", "backtracking"], 60_000);
    expect(run.stderr).toContain(
      "overlays/backtracking.yaml:4: action 1's target $.info[?match(@, '.*.*.*.*.*.*Z')] selects nothing",
    );
    expect(run.stderr).toContain(
      "overlays/backtracking.yaml:6: action 2's target $.info[?match(@, '(a*){9}Z')] selects nothing",
    );
    expect(run.code).toBe(0);
    const info = (parse(run.stdout) as { info: Record<string, unknown> }).info;
    expect(info["x-c"]).toBe(1);
    expect(info).not.toHaveProperty("x-a");
  }, 90_000);

  it("fails a pattern outside I-Regexp at its overlay's line, where it once selected nothing silently", async () => {
    const run = await runCli(["bundle", "openapi.yaml", "--audience", "lookahead"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `overlays/lookahead.yaml:6:13: the target of action 2: the pattern "(?=a)a*" is not an I-Regexp (RFC 9485), the pattern language of JSONPath's match() and search(): lookahead and lookbehind`,
    );
    expect(run.stdout).toBe("");
  });
});

describe("bundle with overlays past a bound", () => {
  it("fails a 3,000-segment target at its line, not with a stack overflow", async () => {
    const run = await runCli(["bundle", "openapi.yaml", "--audience", "long"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /overlays\/long\.yaml:4:13: the target of action 1, "\$\.info\.info.*…", has 3,000 segments; each goes one level down, and a shaped document is at most 200 levels deep/,
    );
    expect(run.stderr).not.toContain("call stack");
  });

  it("fails a document 500 levels deep with its path, not with a recursion error", async () => {
    const run = await runCli(["bundle", "deep.yaml"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /deep\.yaml: the document nests deeper than 200 levels at \$\.components\.schemas\.Deep\.properties\.a\.properties\.a\.properties…/,
    );
    expect(run.stderr).not.toMatch(/recursion limit|call stack/);
  });

  it("fails copies split over three overlay files, each under the bound alone, at the third", async () => {
    const run = await runCli(["bundle", "openapi.yaml", "--audience", "copies"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /overlays\/copy\.yaml:4: action 1 \(\$\['x-t'\]\[\*\]\) merges its copied value into 12 nodes; with the actions before it, this spec's overlays add about 36\.\d MiB, over the 32\.0 MiB limit for one spec \(all its overlays together\)/,
    );
  });
});
