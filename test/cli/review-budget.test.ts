/**
 * `gitbook-openapi sync --mode preview --base-commit <sha>` as a shell runs it, from source and as the
 * built bundle (dist/cli.js, whose own file is the comparison's worker): one spec's comparison exceeds
 * its memory budget (lowered with GITBOOK_REVIEW_HEAP_MB) and says "not reviewed" while its preview is
 * published; the other spec is reviewed as usual. The run succeeds, `--fail-on-breaking` included.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { generatedSpec } from "../change-review/fixtures/generated-spec.ts";
import { PETS, PETS_WITHOUT_ONE, previewArgs } from "../change-review/fixtures/pets.ts";
import { git } from "../support/git.ts";
import { CLI_DIST, CLI_SOURCE, runCli } from "./run-cli.ts";

const TOKEN = "cli-review-budget-token-51f0";
const ORG = "demo-org";

let emulator: RunningEmulator;
let workspace: string;
let base: string;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-review-budget-"));
  await writeFile(path.join(workspace, "big.json"), JSON.stringify(generatedSpec(1500, "1")));
  await writeFile(path.join(workspace, "pets.yaml"), PETS);
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "base");
  base = git(workspace, "rev-parse", "HEAD");
  await writeFile(path.join(workspace, "big.json"), JSON.stringify(generatedSpec(1500, "2")));
  await writeFile(path.join(workspace, "pets.yaml"), PETS_WITHOUT_ONE);
  git(workspace, "commit", "-q", "-am", "head");
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** A preview of merge request `number` against the base commit, its review's heap lowered to 32 MB. */
function preview(number: string, flags: string[], entry?: string) {
  return runCli(previewArgs(workspace, number, base, flags), {
    ...(entry === undefined ? {} : { entry }),
    env: {
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: ORG,
      GITBOOK_REVIEW_HEAP_MB: "32",
    },
  });
}

describe.each([
  ["from source", CLI_SOURCE, "12"],
  ["built (dist/cli.js)", CLI_DIST, "13"],
])("a review over its budget, %s", (_label, entry, number) => {
  it("publishes every preview, says which spec was not reviewed, and reviews the other", async () => {
    const run = await preview(number, ["--fail-on-breaking"], entry);
    const results = JSON.parse(run.stdout) as SpecResult[];
    const big = results.find((result) => result.file === "big.json");
    const pets = results.find((result) => result.file === "pets.yaml");
    expect(big?.status).toBe("published");
    expect(emulator.getSpec(ORG, big?.slug ?? "")).toBeDefined();
    expect(big?.changes?.notReviewed).toBe("the comparison needed more than its 32 MB of memory");
    expect(run.stderr).toContain(
      "API changes in big.json (against the base commit): not reviewed: the comparison needed more than its 32 MB of memory",
    );
    // The other spec's review went on: its removed path is breaking, and fails the run as asked.
    expect(pets?.status).toBe("published");
    expect(pets?.changes?.notReviewed).toBeUndefined();
    expect(pets?.changes?.breaking.map((change) => change.operation ?? "").join("\n")).toMatch(
      /\/pets\/\{id\}/,
    );
    expect(run.stderr).toMatch(/API changes in pets\.yaml \(against the base commit\): 1 breaking/);
    expect(run.stderr).not.toMatch(/Classification Rule error|FATAL ERROR|heap out of memory/);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1 breaking API change \(fail-on-breaking is on/);
  });
});

describe("a review over its budget with --fail-on-unreviewed", () => {
  it("fails the run for it too, saying which spec, beside the breaking changes", async () => {
    const run = await preview("14", ["--fail-on-breaking", "--fail-on-unreviewed"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /1 breaking API change \(fail-on-breaking is on[^)]*\); 1 spec not reviewed \(fail-on-unreviewed is on\):/,
    );
    expect(run.stderr).toContain(
      "- big.json: not reviewed: the comparison needed more than its 32 MB of memory",
    );
    const results = JSON.parse(run.stdout) as SpecResult[];
    expect(results.map((result) => result.status)).toEqual(["published", "published"]);
  });
});
