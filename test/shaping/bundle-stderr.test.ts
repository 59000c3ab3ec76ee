/**
 * `gitbook-openapi bundle --audience` writes what it reports about a shaping on stderr, and names and
 * targets there come from the repository: a file name or an overlay target with a line break must not
 * start a line a CI log reads as a command (`::error::`), nor reach the terminal raw.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.ts";

const SPEC = `openapi: 3.1.0
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    get:
      responses:
        "200": { description: ok }
`;

// A target with a line break (blank space between segments is allowed) that selects nothing: a warning.
const OVERLAY = `overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: "$.info\\n['::warning::injected']"
    update: { x-a: 1 }
`;

// The same target in an action that does nothing: an error quoting the target.
const BAD = `overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: "$.info\\n['::error::injected']"
`;

const CONFIG = `specs:
  openapi.yaml:
    audiences:
      bad: { overlays: [overlays/bad.yaml] }
      nothing: { overlays: [overlays/nothing.yaml] }
`;

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "bundle-stderr-"));
  await mkdir(path.join(workspace, "overlays"));
  await writeFile(path.join(workspace, "openapi.yaml"), SPEC);
  await writeFile(path.join(workspace, "overlays/nothing.yaml"), OVERLAY);
  await writeFile(path.join(workspace, "overlays/bad.yaml"), BAD);
  await writeFile(path.join(workspace, "gitbook-openapi.yaml"), CONFIG);
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const commandLines = (text: string) => text.split(/\r?\n/).filter((line) => /^\s*(::|##\[)/.test(line));

describe("bundle --audience on stderr", () => {
  it("shows an overlay target's line break escaped in an error, on one line", async () => {
    const run = await runCli(["bundle", "openapi.yaml", "--audience", "bad"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "overlays/bad.yaml:4:5: action 1 ($.info\\u000a['::error::injected']) neither updates nor removes",
    );
    expect(commandLines(run.stderr)).toEqual([]);
  });

  it("shows an overlay target's line break encoded in its warning", async () => {
    const run = await runCli(["bundle", "openapi.yaml", "--audience", "nothing"], { cwd: workspace });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "warning: overlays/nothing.yaml:4: action 1's target $.info%0A['::warning::injected']",
    );
    expect(commandLines(run.stderr)).toEqual([]);
  });
});
