/**
 * `gitbook-openapi sync --mode preview` (argv and env, in this process) against the emulator, when the
 * review's base cannot be read. The base commit is unknown (the checkout has no origin to fetch it
 * from), so each spec is compared with its published version; when reading that fails (an answer over
 * its cap, a server error, a read that hangs until its own budget cuts it), the spec is "not reviewed",
 * with the reason, and `--fail-on-unreviewed` fails the run; it is never called new. A spec proven new
 * (the base commit read and lacking the file; GitBook holding no such slug) stays "new spec".
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { openBaseSide } from "../../src/core/change-review/change-review.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { runCli } from "../cli/run-cli.ts";
import { git, initCommitted } from "../support/git.ts";
import { PETS, PETS_WITHOUT_ONE, previewArgs } from "./fixtures/pets.ts";

const TOKEN = "cli-unreadable-base-token-7c21";
const ORG = "demo-org";
const UNKNOWN_COMMIT = "f".repeat(40);
const CONTENT = /\/openapi\/pets\/versions\/latest\/content$/;

let emulator: RunningEmulator;
let workspace: string;
let number = 40;

beforeEach(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  // The live spec the head's pets.yaml would be compared with.
  emulator.seedSpec(ORG, "pets", PETS);
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-unreadable-base-"));
  await writeFile(path.join(workspace, "pets.yaml"), PETS);
  initCommitted(workspace);
  // The head removes an operation: a breaking change, if anything compared it.
  await writeFile(path.join(workspace, "pets.yaml"), PETS_WITHOUT_ONE);
  git(workspace, "commit", "-q", "-am", "head");
});
afterEach(async () => {
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
});

async function preview(baseCommit: string, flags: string[]) {
  number++;
  const run = await runCli(previewArgs(workspace, number, baseCommit, flags), {
    env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: ORG },
  });
  const results = JSON.parse(run.stdout || "[]") as SpecResult[];
  return { ...run, results, pets: results.find((result) => result.file === "pets.yaml") };
}

describe("an unknown base commit, and the published version cannot be read", () => {
  it("an answer over its cap: not reviewed, and --fail-on-unreviewed fails the run", async () => {
    emulator.setFaults({ content: { paddingBytes: 64 * 1024 * 1024 + 4096 } });
    const run = await preview(UNKNOWN_COMMIT, ["--fail-on-breaking", "--fail-on-unreviewed"]);
    expect(run.pets?.status).toBe("published");
    expect(run.pets?.changes?.against).toBe("published version");
    expect(run.pets?.changes?.notReviewed).toMatch(
      /^the base commit ffffffffffff is not in the checkout and could not be fetched .*, and the published version could not be read: .*over the 67108864-byte \(64 MiB\) cap/,
    );
    expect(run.stderr).toContain("1 spec not reviewed (fail-on-unreviewed is on)");
    expect(run.stderr).not.toMatch(/new spec/i);
    expect(run.code).toBe(1);
  });

  it("a server error: not reviewed; fail-on-breaking alone does not call it new", async () => {
    emulator.script({ method: "GET", path: CONTENT, times: 100, fault: { status: 500 } });
    const run = await preview(UNKNOWN_COMMIT, ["--fail-on-breaking", "--timeout", "6"]);
    expect(run.pets?.status).toBe("published");
    expect(run.pets?.changes?.against).toBe("published version");
    expect(run.pets?.changes?.notReviewed).toMatch(/the published version could not be read: .*(500|budget)/);
    expect(run.stderr).toMatch(/API changes of pets\.yaml not reviewed/);
    expect(run.stderr).not.toMatch(/new spec/i);
    // Not reviewed is not breaking: without --fail-on-unreviewed the run passes, and says so.
    expect(run.code).toBe(0);
  });

  it("a read that hangs is cut by its own budget, and the preview is still published", async () => {
    emulator.script({ method: "GET", path: CONTENT, fault: { delayMs: Number.POSITIVE_INFINITY } });
    const run = await preview(UNKNOWN_COMMIT, [
      "--fail-on-breaking",
      "--fail-on-unreviewed",
      "--timeout",
      "9",
    ]);
    expect(run.pets?.changes?.notReviewed).toMatch(
      /the published version could not be read: .*did not complete within its own time budget/,
    );
    // The hang cost its budget, not the run's whole timeout: the upload after it had its time.
    expect(run.pets?.status).toBe("published");
    expect(emulator.getSpec(ORG, run.pets?.slug ?? "")).toBeDefined();
    expect(run.stderr).toContain("- pets.yaml: not reviewed: ");
    expect(run.code).toBe(1);
  });
});

describe("the Action, as the runner starts it, on a pull request whose base commit is unknown", () => {
  it("says not reviewed in the comment and the results, and fail-on-unreviewed fails the step", async () => {
    const github = await startFakeGitHub();
    try {
      emulator.setFaults({ content: { paddingBytes: 64 * 1024 * 1024 + 4096 } });
      const head = git(workspace, "rev-parse", "HEAD");
      const repo = { full_name: "acme/widgets" };
      const pullRequest = {
        number: 8,
        head: { sha: head, ref: "feature", repo },
        base: { sha: UNKNOWN_COMMIT, ref: "main", repo },
      };
      const run = await runActionInProcess({
        workspace,
        inputs: {
          token: TOKEN,
          organization: ORG,
          "api-url": emulator.baseUrl,
          "fail-on-breaking": "true",
          "fail-on-unreviewed": "true",
        },
        githubToken: "ghs_fakeGitHubToken123",
        eventName: "pull_request",
        eventPayload: { action: "synchronize", number: 8, pull_request: pullRequest },
        env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: head, GITHUB_API_URL: github.apiUrl },
      });
      const [pets] = JSON.parse(run.outputs.results ?? "[]") as SpecResult[];
      expect(pets?.status).toBe("published");
      expect(pets?.changes?.notReviewed).toMatch(/and the published version could not be read: .*cap/);
      expect(github.comments(8)[0]?.body).toMatch(
        /\*\*pets\.yaml\*\*: ⚠️ not reviewed: the base commit ffffffffffff/,
      );
      expect(github.comments(8)[0]?.body).not.toMatch(/new spec/i);
      expect(run.exitCode).toBe(1);
    } finally {
      await github.close();
    }
  });
});

describe("a spec proven new stays new", () => {
  it("GitBook holds no such slug: new spec, and the run passes", async () => {
    await writeFile(path.join(workspace, "orders.yaml"), PETS.replace("Pets", "Orders"));
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "orders");
    const run = await preview(UNKNOWN_COMMIT, ["--fail-on-breaking", "--fail-on-unreviewed"]);
    const orders = run.results.find((result) => result.file === "orders.yaml");
    expect(orders?.changes?.against).toBe("nothing");
    expect(orders?.changes?.notReviewed).toBeUndefined();
    // pets.yaml is compared with its live spec: the removed operation is breaking.
    expect(run.pets?.changes?.against).toBe("published version");
    expect(run.pets?.changes?.breaking.length).toBeGreaterThan(0);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/not reviewed/);
  });

  it("the base commit was read and lacks the file: new spec, even when GitBook could not be read", async () => {
    const base = git(workspace, "rev-parse", "HEAD");
    await writeFile(path.join(workspace, "orders.yaml"), PETS.replace("Pets", "Orders"));
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "orders");
    emulator.setFaults({ content: { paddingBytes: 64 * 1024 * 1024 + 4096 } });
    const run = await preview(base, ["--fail-on-breaking", "--fail-on-unreviewed"]);
    const orders = run.results.find((result) => result.file === "orders.yaml");
    expect(orders?.changes?.against).toBe("nothing");
    expect(run.pets?.changes?.against).toBe("base commit");
    expect(run.pets?.changes?.notReviewed).toBeUndefined();
    expect(run.code).toBe(0);
  });
});

describe("file patterns that name files the change adds", () => {
  it("a literal pattern names nothing at the base: its file is new, the others are reviewed", async () => {
    const base = git(workspace, "rev-parse", "HEAD~1");
    await writeFile(path.join(workspace, "orders.yaml"), PETS.replace("Pets", "Orders"));
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "orders");
    const flags = [
      "--files",
      "pets.yaml",
      "--files",
      "orders.yaml",
      "--fail-on-breaking",
      "--fail-on-unreviewed",
    ];
    const run = await preview(base, flags);
    const orders = run.results.find((result) => result.file === "orders.yaml");
    expect(orders?.changes?.against).toBe("nothing");
    expect(run.pets?.changes?.against).toBe("base commit");
    expect(run.pets?.changes?.notReviewed).toBeUndefined();
    expect(run.pets?.changes?.breaking.map((change) => change.operation).join()).toMatch(/\/pets\/\{id\}/);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1 breaking API change \(fail-on-breaking is on/);
  });
});

describe("a base commit that was read, but not its spec", () => {
  it("a spec the base could not bundle is not reviewed, not new", async () => {
    // The base's pets.yaml refers to a file the base does not have; the head has it.
    const broken = PETS.replace('"200": {description: ok}', '"200": {$ref: "./responses.yaml#/ok"}');
    await writeFile(path.join(workspace, "pets.yaml"), broken);
    git(workspace, "commit", "-q", "-am", "broken base");
    const base = git(workspace, "rev-parse", "HEAD");
    await writeFile(path.join(workspace, "responses.yaml"), "ok: {description: ok}\n");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "fixed head");
    const run = await preview(base, ["--fail-on-breaking", "--fail-on-unreviewed"]);
    expect(run.pets?.changes?.against).toBe("base commit");
    expect(run.pets?.changes?.notReviewed).toMatch(/^at the base commit, pets\.yaml could not be bundled: /);
    expect(run.code).toBe(1);
  });

  it("a Git port that throws leaves every spec not reviewed, saying why", async () => {
    const warnings: string[] = [];
    const side = await openBaseSide({
      workspace,
      commit: "a".repeat(40),
      patterns: undefined,
      published: async () => {
        throw new Error("the published version must not be read");
      },
      git: {
        checkoutTree: () => Promise.reject(new Error("spawn git EPIPE")),
        fileAt: () => Promise.reject(new Error("unused")),
        isAncestor: () => Promise.reject(new Error("unused")),
        headCommit: async () => undefined,
        listFiles: () => Promise.reject(new Error("unused")),
      },
      logger: { info: () => {}, warning: (message) => warnings.push(message) },
    });
    expect(side.against).toBe("base commit");
    await expect(side.documentOf("pets.yaml", "pets")).rejects.toMatchObject({
      reason: "the base commit could not be read: git failed: spawn git EPIPE",
    });
    expect(warnings).toEqual([
      "API change review: the base commit could not be read: git failed: spawn git EPIPE. No spec is reviewed.",
    ]);
  });
});
