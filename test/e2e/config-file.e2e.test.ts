/**
 * One configuration file, read alike by the Action (as the runner starts it) and the CLI (in process):
 * the same settings and per-spec entries give the same plan; what a workflow input or a flag says wins
 * over the file; a mistake in the file stops both with its file:line:column.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { runCli } from "../cli/run-cli.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const CONFIG = `slug-prefix: shop
files: ["api/**"]
specs:
  api/orders.yaml:
    slug: orders-api
  api/drafts/**:
    exclude: true
`;

let workspace: string;
beforeAll(async () => {
  workspace = await emptyWorkspace({
    "gitbook-openapi.yaml": CONFIG,
    "api/orders.yaml": minimalSpec("Orders"),
    "api/refunds.yaml": minimalSpec("Refunds"),
    "api/drafts/wip.yaml": minimalSpec("Work in progress"),
  });
});
afterAll(async () => {
  await removeWorkspace(workspace);
});

type Row = { file: string; slug: string; status: string };
const rows = (results: Row[]) => results.map(({ file, slug, status }) => ({ file, slug, status }));

async function viaCli(args: string[] = []) {
  const run = await runCli(["sync", "--mode", "check", "--json", "--workspace", workspace, ...args]);
  return { code: run.code, stderr: run.stderr, results: run.stdout ? (JSON.parse(run.stdout) as Row[]) : [] };
}

async function viaAction(inputs: Record<string, string> = {}) {
  const run = await runActionInProcess({
    workspace,
    inputs: { mode: "check", ...inputs },
    env: { GITHUB_REPOSITORY: "acme/shop" },
  });
  return { code: run.exitCode, run, results: JSON.parse(run.outputs.results ?? "[]") as Row[] };
}

describe("the configuration file, for the Action and the CLI", () => {
  it("gives both the same specs and slugs: its prefix, its slug entries, its exclusions", async () => {
    const expected = [
      { file: "api/orders.yaml", slug: "orders-api", status: "planned" },
      { file: "api/refunds.yaml", slug: "shop-api-refunds", status: "planned" },
    ];
    const cli = await viaCli();
    expect(cli.code).toBe(0);
    expect(rows(cli.results)).toEqual(expected);
    const action = await viaAction();
    expect(action.code).toBe(0);
    expect(rows(action.results)).toEqual(expected);
  });

  it("lets an input or a flag win over it", async () => {
    const cli = await viaCli(["--slug-prefix", "store"]);
    expect(rows(cli.results).map((r) => r.slug)).toEqual(["orders-api", "store-api-refunds"]);
    const action = await viaAction({ "slug-prefix": "store" });
    expect(rows(action.results).map((r) => r.slug)).toEqual(["orders-api", "store-api-refunds"]);
  });

  it("stops both at a mistake in it, naming its file, line and column", async () => {
    const broken = await emptyWorkspace({
      "gitbook-openapi.yaml": "slug-prefix: shop\ntimeout: soon\n",
      "a.yaml": minimalSpec("A"),
    });
    try {
      const cli = await runCli(["sync", "--mode", "check", "--workspace", broken]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain("gitbook-openapi.yaml:2:10: 'timeout' must be a whole number.");
      const action = await runActionInProcess({ workspace: broken, inputs: { mode: "check" } });
      expect(action.exitCode).toBe(1);
      expect(action.annotations.map((a) => a.message).join("\n")).toContain(
        "gitbook-openapi.yaml:2:10: 'timeout' must be a whole number.",
      );
    } finally {
      await removeWorkspace(broken);
    }
  });

  it("names the setting a mistyped key meant, in both, at the key's line and column", async () => {
    const typo = await emptyWorkspace({
      "gitbook-openapi.yaml": "organization: demo-org\nslug-prefx: x\n",
      "a.yaml": minimalSpec("A"),
    });
    const message = "gitbook-openapi.yaml:2:1: unknown setting 'slug-prefx'; did you mean 'slug-prefix'?";
    try {
      const cli = await runCli(["sync", "--mode", "check", "--workspace", typo]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain(message);
      const action = await runActionInProcess({ workspace: typo, inputs: { mode: "check" } });
      expect(action.exitCode).toBe(1);
      expect(action.annotations.map((a) => a.message)).toContain(message);
    } finally {
      await removeWorkspace(typo);
    }
  });
});
