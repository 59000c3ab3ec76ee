/**
 * The Action, run as the GitHub runner runs it against the emulator: by default a structurally invalid
 * spec that GitBook can take publishes with a warning annotation at its file, line and column; with
 * `strict: true` it fails with error annotations at the same place, the first naming the setting
 * (never uploaded), and the valid ones publish.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "../e2e/helpers.ts";

const INVALID = [
  "openapi: 3.1.0",
  "info: {title: Orders, version: '1'}",
  "paths:",
  "  /orders:",
  "    get:",
  "      parameters:",
  "        - name: id",
  "      responses: {'200': {description: ok}}",
  "",
].join("\n");

let api: RunningEmulator;
let workspace: string;
const repo = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "b".repeat(40) };

beforeAll(async () => {
  api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  workspace = await emptyWorkspace({ "orders.yaml": INVALID, "valid.yaml": minimalSpec("Valid") });
});
afterAll(async () => {
  await api?.close();
  await removeWorkspace(workspace);
});

const inputs = (extra: Record<string, string> = {}) => ({
  token: api.token,
  organization: "demo-org",
  "api-url": api.baseUrl,
  ...extra,
});

describe("the Action and a structurally invalid spec", () => {
  it("with strict: true, annotates the problem once at file:line:col and uploads only the valid spec", async () => {
    const run = await runActionInProcess({ workspace, inputs: inputs({ strict: "true" }), env: repo });
    expect(run.exitCode).toBe(1);
    const located = run.annotations.filter((a) => a.file === "orders.yaml");
    const at = { level: "error", file: "orders.yaml", line: 7, column: 11 };
    expect(located).toEqual([
      expect.objectContaining({
        level: "error",
        file: "orders.yaml",
        message: expect.stringMatching(
          /^refused by `strict: true`: 2 findings of the official OpenAPI schema/,
        ),
      }),
      { ...at, message: "`parameters[0]` must have at least one of `schema`, `content`." },
      { ...at, message: "`parameters[0]` is missing the required field `in`." },
    ]);
    const results = JSON.parse(run.outputs.results ?? "[]") as {
      file: string;
      status: string;
      errorCode?: string;
    }[];
    expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([
      ["orders.yaml", "failed", "INVALID_SPEC"],
      ["valid.yaml", "published", null],
    ]);
    expect(api.listSpecs("demo-org").map((spec) => spec.slug)).toEqual(["valid"]);
  });

  it("by default, warns at the same place and publishes it, the summary counting its warnings", async () => {
    const run = await runActionInProcess({ workspace, inputs: inputs(), env: repo });
    expect(run.exitCode).toBe(0);
    const row = run.summary.split("\n").find((line) => line.includes("`orders.yaml`"));
    expect(row).toMatch(/published \(new\), 2 warnings \|/);
    const valid = run.summary.split("\n").find((line) => line.includes("`valid.yaml`"));
    expect(valid).not.toMatch(/warning/);
    expect(run.annotations.filter((a) => a.file === "orders.yaml")).toEqual([
      expect.objectContaining({ level: "warning", line: 7, column: 11 }),
      expect.objectContaining({ level: "warning", line: 7, column: 11 }),
    ]);
    expect(
      api
        .listSpecs("demo-org")
        .map((spec) => spec.slug)
        .sort(),
    ).toEqual(["orders", "valid"]);
  });
});
