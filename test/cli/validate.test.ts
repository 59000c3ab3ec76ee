/**
 * `gitbook-openapi validate [files...]`, in process: the checks sync runs before an upload, offline, as
 * `file:line:col: message` lines; and `sync` against the emulator, which refuses the same structurally
 * invalid spec (never uploaded) while it publishes the valid ones.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { emptyWorkspace, exampleWorkspace, removeWorkspace } from "../e2e/helpers.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "validate-command-token-51c9";
const BAD_RESPONSES = [
  "openapi: 3.0.3",
  "info:",
  "  title: Orders",
  '  version: "1.0.0"',
  "paths:",
  "  /orders:",
  "    get:",
  '      responses: "not an object"',
  "",
].join("\n");
const BAD_REF = [
  '{"swagger": "2.0",',
  ' "info": {"title": "Stock", "version": "1"},',
  ' "paths": {"/items": {"get": {"responses": {"200": {"$ref": 7}}}}}}',
  "",
].join("\n");

let workspace: string;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  workspace = await exampleWorkspace({ "broken/orders.yaml": BAD_RESPONSES, "broken/stock.json": BAD_REF });
});
afterAll(async () => {
  await emulator?.close();
  await removeWorkspace(workspace);
});

describe("gitbook-openapi validate", () => {
  it("prints each problem once as file:line:col: message and exits 1", async () => {
    const run = await runCli(["validate", "broken/orders.yaml", "broken/stock.json"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      'broken/orders.yaml:8:7: `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the string "not an object".',
      "broken/stock.json:3:53: `$ref` must be a string: a URI reference such as `#/components/schemas/Pet`; it is the number 7.",
      "2 files checked: 2 invalid (2 problems).",
      "",
    ]);
  });

  it("keeps each problem on one line and no line a CI log reads as a command, whatever the file is named", async () => {
    const names = ["::error file=x::y.yaml", "dir/a\n::error::b.yaml"];
    const hostile = await emptyWorkspace(Object.fromEntries(names.map((name) => [name, BAD_RESPONSES])));
    try {
      const run = await runCli(["validate", ...names], { cwd: hostile });
      expect(run.code).toBe(1);
      const lines = run.stdout.split("\n");
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(/^%3A:error file=x::y\.yaml:8:7: `responses` must be/);
      expect(lines[1]).toMatch(/^dir\/a\\u000a::error::b\.yaml:8:7: `responses` must be/);
      for (const line of lines) expect(line).not.toMatch(/^\s*::/);
    } finally {
      await removeWorkspace(hostile);
    }
  });

  it("exits 0 on valid files, a split spec included, with no token", async () => {
    const run = await runCli(["validate", "api/petstore/openapi.yaml", "specs/billing.openapi.yaml"], {
      cwd: workspace,
    });
    expect(run.stdout).toBe("2 files checked: valid.\n");
    expect(run.code).toBe(0);
  });

  it("finds the specs as sync does when no file is given", async () => {
    const run = await runCli(["validate", "--workspace", workspace], { cwd: path.dirname(workspace) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^broken\/orders\.yaml:8:7: /m);
    expect(run.stdout).toMatch(/^broken\/stock\.json:3:53: /m);
    const checked = /^(\d+) files checked: 2 invalid \(2 problems\)\.$/m.exec(run.stdout);
    expect(Number(checked?.[1])).toBeGreaterThan(4);
  });

  it("turns a rule family down to warnings with --validation-warnings", async () => {
    const run = await runCli(["validate", "broken/orders.yaml", "--validation-warnings", "schema"], {
      cwd: workspace,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'broken/orders.yaml:8:7: warning: `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the string "not an object".\n1 file checked: valid, 1 warning.\n',
    );
    const refs = await runCli(["validate", "broken/stock.json"], {
      cwd: workspace,
      env: { GITBOOK_VALIDATION_WARNINGS: "refs" },
    });
    expect(refs.code).toBe(0);
  });

  it("prints the same as JSON with --json, warnings with their severity", async () => {
    const run = await runCli(
      ["validate", "broken/orders.yaml", "broken/stock.json", "--json", "--validation-warnings", "refs"],
      { cwd: workspace },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      checked: 2,
      problems: [
        {
          severity: "error",
          file: "broken/orders.yaml",
          line: 8,
          column: 7,
          message: expect.stringMatching(/^`responses` must be a mapping/),
        },
        {
          severity: "warning",
          file: "broken/stock.json",
          line: 3,
          column: 53,
          message: expect.stringMatching(/^`\$ref` must be a string/),
        },
      ],
    });
  });

  it("refuses a family it does not know, and a file that is not a spec (exit 2)", async () => {
    const family = await runCli(["validate", "broken/orders.yaml", "--validation-warnings", "style"], {
      cwd: workspace,
    });
    expect(family.code).toBe(2);
    expect(family.stderr).toContain(`--validation-warnings: "style" is not one of 'schema', 'refs', 'info'.`);
    const notSpec = await runCli(["validate", "deploy/deployment.yaml"], { cwd: workspace });
    expect(notSpec.code).toBe(2);
    expect(notSpec.stderr).toContain("deploy/deployment.yaml is not an OpenAPI document");
  });
});

describe("sync and a structurally invalid spec", () => {
  it("fails it in check mode, with no token, at its location", async () => {
    const run = await runCli(["sync", "--mode", "check", "--workspace", workspace], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ *error: broken\/orders\.yaml:8:7: `responses` must be a mapping/m);
    expect(run.stderr).toMatch(/^ *error: broken\/stock\.json:3:53: `\$ref` must be a string/m);
  });

  it("fails it at its location and never uploads it; the valid specs are published", async () => {
    const run = await runCli(["sync", "--workspace", workspace, "--slug-prefix", "shop"], {
      cwd: workspace,
      env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: "demo-org" },
    });
    expect(run.code).toBe(1);
    // Once, with its place once.
    const lines = run.stderr.split("\n").filter((line) => line.includes("must be a mapping of status codes"));
    expect(lines).toHaveLength(2); // the log line, and the summary's
    expect(lines[0]?.trim()).toMatch(/^error: broken\/orders\.yaml:8:7: `responses` must be/);
    expect(run.stderr).not.toMatch(/orders\.yaml:8:7: broken\/orders\.yaml/);

    const slugs = emulator.listSpecs("demo-org").map((spec) => spec.slug);
    expect(slugs).toContain("shop-api-petstore");
    expect(slugs).toContain("shop-specs-billing");
    expect(slugs.some((slug) => slug.includes("orders") || slug.includes("stock"))).toBe(false);
  });
});
