/**
 * A whole preview run in this process, through the Action's entry with its real comparer: one spec's
 * comparison exceeds its memory budget (lowered with the `review-heap-mb` input), and that spec is still
 * published, says "not reviewed" in the results, the summary and the log, and does not fail the run
 * with fail-on-breaking; the other spec is reviewed as usual.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { renderChanges } from "../../src/core/report/changes.ts";
import type { SpecResult } from "../../src/core/result.ts";
import type { ActionHost } from "../../src/hosts/action/host.ts";
import { runAction } from "../../src/hosts/action/run.ts";
import { git } from "../support/git.ts";
import { generatedSpec } from "./fixtures/generated-spec.ts";

let workspace = "";
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const PETS =
  "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths:\n  /pets:\n    get:\n      responses:\n        '200': {description: ok}\n  /pets/{id}:\n    get:\n      responses:\n        '200': {description: ok}\n";

describe("a comparison over its budget in a preview run", () => {
  it("publishes the spec, says it was not reviewed, and reviews the others", async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "not-reviewed-"));
    await writeFile(path.join(workspace, "big.json"), JSON.stringify(generatedSpec(1500, "1")));
    await writeFile(path.join(workspace, "pets.yaml"), PETS);
    git(workspace, "init", "-q", "-b", "main");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "base");
    const base = git(workspace, "rev-parse", "HEAD");
    await writeFile(path.join(workspace, "big.json"), JSON.stringify(generatedSpec(1500, "2")));
    await writeFile(path.join(workspace, "pets.yaml"), PETS.replace(/ {2}\/pets\/\{id\}:[\s\S]*$/, ""));
    git(workspace, "commit", "-q", "-am", "head");
    const head = git(workspace, "rev-parse", "HEAD");

    const outputs: Record<string, string> = {};
    const failures: string[] = [];
    let summary = "";
    const logger = new MemoryLogger();
    const repo = { full_name: "acme/widgets" };
    const event = {
      number: 9,
      pull_request: {
        number: 9,
        head: { sha: head, ref: "f", repo },
        base: { sha: base, ref: "main", repo },
      },
    };
    const host: ActionHost = {
      readInput: (name) =>
        ({
          token: "t",
          organization: "org",
          "fail-on-breaking": "true",
          "breaking-allowed": "/pets/{id}",
          "review-heap-mb": "32",
        })[name] ?? "",
      setSecret: () => {},
      setOutput: (name, value) => {
        outputs[name] = value;
      },
      appendSummary: async (text) => {
        summary += text;
      },
      setFailed: (message) => {
        failures.push(message);
      },
      logger,
      env: {
        GITHUB_WORKSPACE: workspace,
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: "event.json",
        GITHUB_REPOSITORY: "acme/widgets",
        GITHUB_SHA: head,
      },
      readFile: () => JSON.stringify(event),
    };
    const service = new FakeSpecService();
    await runAction(host, {
      createService: () => service,
      createComments: () => undefined,
      clock: new InstantClock(),
    });

    expect(failures).toEqual([]);
    const results = JSON.parse(outputs.results ?? "[]") as SpecResult[];
    const big = results.find((result) => result.file === "big.json");
    const pets = results.find((result) => result.file === "pets.yaml");
    expect(big?.status).toBe("published");
    expect(service.specs.has("big-pr-9")).toBe(true);
    expect(big?.changes?.notReviewed).toBe("the comparison needed more than its 32 MB of memory");
    expect(pets?.changes?.notReviewed).toBeUndefined();
    expect(pets?.changes?.allowed.map((change) => change.operation ?? "").join()).toMatch(/\/pets\/\{id\}/);
    expect(summary).toContain(
      "**big.json**: ⚠️ not reviewed: the comparison needed more than its 32 MB of memory",
    );
    const warnings = logger.entries
      .filter((entry) => entry.level === "warning")
      .map((entry) => entry.message);
    expect(warnings.join("\n")).toContain("API changes of big.json not reviewed");
  });
});

describe("renderChanges", () => {
  it("lists a spec that was not reviewed, even with no changes known", () => {
    const result: SpecResult = {
      file: "api/big.yaml",
      slug: "api-big-pr-1",
      status: "published",
      errors: [],
      changes: {
        against: "base commit",
        breaking: [],
        other: [],
        allowed: [],
        notReviewed: "the comparison took longer than its 60 s",
      },
    };
    expect(renderChanges([result], [])).toEqual([
      "#### API changes",
      "",
      "Compared with the base commit.",
      "",
      "**api/big.yaml**: ⚠️ not reviewed: the comparison took longer than its 60 s",
      "",
    ]);
  });
});
