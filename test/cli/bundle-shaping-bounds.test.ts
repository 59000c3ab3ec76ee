/**
 * `gitbook-openapi bundle` (and `--audience`) with overlays that once held or broke the command (issue
 * 26, items 5 and 6): patterns that backtrack for hours in JavaScript's RegExp now finish (the command
 * as a process, killed if it hangs); a pattern outside I-Regexp, a 3,000-segment target, a document 500
 * levels deep and a copy bomb split over several overlay files each fail the spec at their place.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COPY_SOURCE, DEEP, HOSTILE_OVERLAYS, hostileSpec } from "./hostile-overlays.ts";
import { runCli, runCliProcess } from "./run-cli.ts";

const FILES: Record<string, string> = {
  "openapi.yaml": hostileSpec("Pets", COPY_SOURCE),
  "deep.yaml": hostileSpec("Deep", DEEP),
  ...HOSTILE_OVERLAYS,
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

/** The command as a new process, killed (SIGKILL) if it hangs. */
const bundleProcess = (args: string[], killAfterMs: number) =>
  runCliProcess(["bundle", ...args], { cwd: workspace, killAfterMs });

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
