/**
 * `gitbook-openapi sync` as a shell runs it, against the emulator, with specs whose overlays once held
 * or aborted the whole run (issue 26, items 5 and 6): a pattern that backtracks for hours in JavaScript's
 * RegExp on a 3,000-character description, a 3,000-segment target, a document 500 levels deep and a copy
 * bomb split over overlay files. The run ends; the valid specs are published, the others fail with
 * their place. Before, the run never ended (the event loop was blocked: neither `--timeout` nor SIGTERM
 * acted), or ended on a stack overflow with nothing uploaded after it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SpecResult } from "../../src/core/result.ts";
import { emulatorEnv, ORG, useEmulator, useTempDirs } from "../support/use-emulator.ts";
import { COPY_SOURCE, DEEP, HOSTILE_OVERLAYS, hostileSpec } from "./hostile-overlays.ts";
import { runCliProcess } from "./run-cli.ts";

const TOKEN = "sync-shaping-bounds-token-5c1e";

/** The specs whose overlays pass a bound. */
const BOUNDED = `  specs/long.yaml:
    overlays: [overlays/long.yaml]
  specs/deep.yaml:
    overlays: [overlays/descriptions.yaml]
  specs/copies.yaml:
    overlays: [overlays/copy.yaml, overlays/copy.yaml, overlays/copy.yaml]
`;

const FILES: Record<string, string> = {
  "specs/pets.yaml": hostileSpec("Pets"),
  "specs/slow.yaml": hostileSpec("Slow"),
  "specs/long.yaml": hostileSpec("Long"),
  "specs/deep.yaml": hostileSpec("Deep", DEEP),
  "specs/copies.yaml": hostileSpec("Copies", COPY_SOURCE),
  ...HOSTILE_OVERLAYS,
  "gitbook-openapi.yaml": `specs:
  specs/slow.yaml:
    overlays: [overlays/backtracking.yaml]
${BOUNDED}`,
};

const emulator = useEmulator(TOKEN);
const tempDir = useTempDirs("sync-shaping-bounds-");

async function workspaceOf(files: Record<string, string>): Promise<string> {
  const workspace = await tempDir();
  await mkdir(path.join(workspace, "specs"));
  await mkdir(path.join(workspace, "overlays"));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(workspace, file), text);
  return workspace;
}

/**
 * `sync --json` as a new process with the run's own `--timeout`; killed with SIGKILL (which a blocked
 * event loop cannot ignore) if it is still running well past it.
 */
const sync = (workspace: string, args: string[], killAfterMs: number) =>
  runCliProcess(["sync", "--workspace", workspace, "--json", ...args], {
    env: emulatorEnv(emulator(), TOKEN),
    killAfterMs,
  });

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
    // The patterns ran, with RFC 9535's results: the backtracking ones selected nothing.
    expect(emulator().getSpec(ORG, "specs-slow")).toBeDefined();
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
    expect(emulator().getSpec(ORG, "specs-pets")).toBeDefined();
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
    expect(emulator().getSpec(ORG, "deep-specs-pets")).toBeDefined();
    expect(run.code).toBe(1);
  }, 120_000);
});
