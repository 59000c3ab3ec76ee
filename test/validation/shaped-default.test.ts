/**
 * What an overlay breaks in a spec's structure, through `sync --mode check` as a user runs it: by
 * default a finding GitBook takes is a warning after shaping and the spec goes on; with `--strict` it
 * fails the spec, the first line naming the setting (issue 27, item 1).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.ts";

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "shaped-default-"));
  await mkdir(path.join(workspace, "specs"));
  await writeFile(
    path.join(workspace, "specs", "pets.yaml"),
    'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "1"\ntags:\n  - name: pets\npaths: {}\n',
  );
  await writeFile(
    path.join(workspace, "numbered.overlay.yaml"),
    "overlay: 1.0.0\ninfo: {title: Numbers, version: 1.0.0}\nactions:\n  - target: $.tags[0]\n    update: {description: 12}\n",
  );
  await writeFile(
    path.join(workspace, "gitbook-openapi.yaml"),
    "specs:\n  specs/pets.yaml:\n    overlays: [numbered.overlay.yaml]\n",
  );
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const check = (...flags: string[]) => runCli(["sync", "--workspace", workspace, "--mode", "check", ...flags]);
const linesAbout = (stderr: string) =>
  stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.includes("after shaping") || line.includes("refused by"));

describe("a structural finding an overlay brings in", () => {
  it("is a warning by default, and the spec checks", async () => {
    const run = await check();
    expect(run.code).toBe(0);
    expect(linesAbout(run.stderr)).toEqual([
      expect.stringMatching(
        /^warning: specs\/pets\.yaml: after shaping, `tags\.0\.description`: .*must be a string/,
      ),
    ]);
  });

  it("fails the spec with --strict, the first line naming the setting", async () => {
    const run = await check("--strict");
    expect(run.code).toBe(1);
    const lines = linesAbout(run.stderr).filter((line) => line.startsWith("error: "));
    expect(lines[0]).toMatch(
      /^error: specs\/pets\.yaml: refused by `strict: true`: 1 finding of the official/,
    );
    expect(lines[1]).toMatch(
      /^error: specs\/pets\.yaml: after shaping, `tags\.0\.description`: .*must be a string/,
    );
  });
});
