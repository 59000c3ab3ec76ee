/**
 * Findings at their place, through the user's paths, on a real split spec (Redocly's openapi-starter,
 * test/fixtures/openapi-starter): the pull request adds a required parameter to an operation written
 * in `paths/orders_{orderId}.yaml` and removes another operation from its path file. The Action
 * annotates each breaking change at the line of the split file that writes it, and its comment links
 * each place to that line at the head commit (a removal's also to the base commit's line); the CLI's
 * `--json` carries the same file and line, its log says `file:line: breaking:`, and `--codequality`
 * writes GitLab's report with them.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import type { SpecChange } from "../../src/core/result.ts";
import { previewArgs } from "../change-review/fixtures/pets.ts";
import { runCli } from "../cli/run-cli.ts";
import { git } from "../support/git.ts";
import { lineOf } from "../support/line-of.ts";
import { emptyWorkspace, removeWorkspace } from "./helpers.ts";

const STARTER = fileURLToPath(new URL("../fixtures/openapi-starter/openapi", import.meta.url));
const ORDER_FILE = "api/paths/orders_{orderId}.yaml";
const ROOT = "api/openapi.yaml";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  const github = await startFakeGitHub();
  const dir = await emptyWorkspace({});
  cleanups.push(
    () => api.close(),
    () => github.close(),
    () => removeWorkspace(dir),
  );
  await cp(STARTER, path.join(dir, "api"), { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  // A new required query parameter on GET /orders/{orderId}, in the path's own file.
  const orders = await readFile(path.join(dir, ORDER_FILE), "utf8");
  const withParameter = orders.replace(
    "    - $ref: ../components/parameters/OrderId.yaml\n",
    "    - $ref: ../components/parameters/OrderId.yaml\n    - {name: expand, in: query, required: true, schema: {type: string}}\n",
  );
  expect(withParameter).not.toBe(orders);
  await writeFile(path.join(dir, ORDER_FILE), withParameter);
  // The order items path removed from the root: its operations are removed.
  const root = await readFile(path.join(dir, ROOT), "utf8");
  const withoutItems = root.replace("  /order-items:\n    $ref: paths/order-items.yaml\n", "");
  expect(withoutItems).not.toBe(root);
  await writeFile(path.join(dir, ROOT), withoutItems);
  git(dir, "commit", "-q", "-am", "head");
  const head = git(dir, "rev-parse", "HEAD");
  return {
    api,
    github,
    dir,
    base,
    head,
    // Where the head writes them: the operation's `parameters`, and `paths` (the removed path's parent).
    parametersLine: lineOf(withParameter, "  parameters:"),
    pathsLine: lineOf(withoutItems, "paths:"),
    // Where the base wrote the removed path.
    itemsLine: lineOf(root, "  /order-items:"),
  };
}

describe("breaking changes at the file and line that write them", () => {
  it("annotates each in the Action at the split file's line", async () => {
    const s = await setup();
    const pullRequest = {
      number: 5,
      head: { sha: s.head, ref: "feature", repo: { full_name: "acme/cafe" } },
      base: { sha: s.base, ref: "main", repo: { full_name: "acme/cafe" } },
    };
    const result = await runActionLikeRunner({
      workspace: s.dir,
      inputs: { token: s.api.token, organization: "demo-org", "api-url": s.api.baseUrl },
      githubToken: "ghs_fakeGitHubToken123",
      eventName: "pull_request",
      eventPayload: { action: "synchronize", number: 5, pull_request: pullRequest },
      env: { GITHUB_REPOSITORY: "acme/cafe", GITHUB_SHA: s.head, GITHUB_API_URL: s.github.apiUrl },
    });
    expect(result.exitCode).toBe(0);
    const errors = result.annotations.filter((a) => a.level === "error");
    const parameter = errors.find((a) => /expand/.test(a.message));
    expect(parameter).toMatchObject({ file: ORDER_FILE, line: s.parametersLine });
    expect(parameter?.message).toMatch(
      /^Breaking API change \(spec api\/openapi\.yaml\): GET \/orders\/\{orderId\}/,
    );
    const removed = errors.filter((a) => /\/order-items/.test(a.message));
    expect(removed.length).toBeGreaterThan(0);
    for (const annotation of removed) expect(annotation).toMatchObject({ file: ROOT, line: s.pathsLine });
    // The comment links the place beside each change to its line at the pull request's head commit.
    const comment = s.github.comments(5)[0]?.body ?? "";
    expect(comment).toContain(
      `([\`${ORDER_FILE}:${s.parametersLine}\`](https://github.com/acme/cafe/blob/${s.head}/api/paths/orders_%7BorderId%7D.yaml#L${s.parametersLine}))`,
    );
    // The removed path: at the head's `paths`, and where the base commit's root file had it.
    expect(comment).toContain(
      `  - path removed ([\`${ROOT}:${s.pathsLine}\`](https://github.com/acme/cafe/blob/${s.head}/${ROOT}#L${s.pathsLine}); base: [\`${ROOT}:${s.itemsLine}\`](https://github.com/acme/cafe/blob/${s.base}/${ROOT}#L${s.itemsLine}))`,
    );
  });

  it("carries file and line in the CLI's --json, its log and its Code Quality report", async () => {
    const s = await setup();
    const report = path.join(s.dir, "out", "gl-code-quality.json");
    const run = await runCli(previewArgs(s.dir, 5, s.base, ["--codequality", report]), {
      env: {
        GITBOOK_TOKEN: s.api.token,
        GITBOOK_API_URL: s.api.baseUrl,
        GITBOOK_ORGANIZATION: "demo-org",
      },
    });
    expect(run.stderr).toContain(`${ORDER_FILE}:${s.parametersLine}: breaking: GET /orders/{orderId}`);
    expect(run.code).toBe(0);
    const [spec] = JSON.parse(run.stdout) as { changes: { breaking: SpecChange[] } }[];
    const parameter = spec?.changes.breaking.find((change) => /expand/.test(change.message));
    expect(parameter).toMatchObject({
      kind: "required-parameter-added",
      file: ORDER_FILE,
      line: s.parametersLine,
      pointer: "#/paths/~1orders~1{orderId}/get/parameters",
    });
    expect(parameter?.baseFile).toBeUndefined();
    // A removal carries the base commit's place too; the Code Quality report keeps the head's.
    const removed = spec?.changes.breaking.find((change) => change.kind === "path-removed");
    expect(removed).toMatchObject({ file: ROOT, line: s.pathsLine, baseFile: ROOT, baseLine: s.itemsLine });
    const issues = JSON.parse(await readFile(report, "utf8")) as {
      check_name: string;
      severity: string;
      location: { path: string; lines: { begin: number } };
    }[];
    expect(issues).toContainEqual(
      expect.objectContaining({
        check_name: "gitbook-openapi/required-parameter-added",
        severity: "critical",
        location: { path: ORDER_FILE, lines: { begin: s.parametersLine } },
      }),
    );
  });
});
