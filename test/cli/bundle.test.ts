/**
 * `gitbook-openapi bundle` prints exactly the text `sync` uploads for the same file and settings: the
 * split spec bundled into one document, with its publish record. In process, against the emulator.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { exampleWorkspace } from "../e2e/helpers.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "bundle-command-token-7e3a";
let emulator: RunningEmulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  // The repository's own examples: the petstore is split over six files.
  workspace = await exampleWorkspace();
  await writeFile(path.join(workspace, "notes.yaml"), "title: not a spec\n");
});
afterAll(async () => {
  await emulator?.close();
  await rm(workspace, { recursive: true, force: true });
});

describe("gitbook-openapi bundle", () => {
  it("prints the text sync uploads: bundled, with its publish record", async () => {
    const bundled = await runCli(["bundle", "api/petstore/openapi.yaml", "--slug-prefix", "shop"], {
      cwd: workspace,
    });
    expect(bundled.code).toBe(0);
    expect(bundled.stderr).toBe("");
    const document = parse(bundled.stdout) as Record<string, unknown>;
    expect(Object.keys(document)[0]).toBe("x-publish-record");
    expect(JSON.stringify(document)).not.toContain("schemas/pet.yaml");

    const synced = await runCli(["sync", "--workspace", workspace, "--slug-prefix", "shop"], {
      cwd: workspace,
      env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: "demo-org" },
    });
    expect(synced.code).toBe(0);
    const spec = emulator.getSpec("demo-org", "shop-api-petstore");
    expect(spec?.lastVersion).toBeDefined();
    expect(emulator.getVersionText("demo-org", "shop-api-petstore", spec?.lastVersion as string)).toBe(
      bundled.stdout,
    );
  });

  it("writes it to a file with -o", async () => {
    const run = await runCli(["bundle", "api/petstore/openapi.yaml", "-o", "out.yaml"], { cwd: workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(await readFile(path.join(workspace, "out.yaml"), "utf8")).toMatch(/^x-publish-record: /);
  });

  it("refuses a file that is not a spec, or outside the workspace, naming it (exit 2)", async () => {
    const notSpec = await runCli(["bundle", "notes.yaml"], { cwd: workspace });
    expect(notSpec.code).toBe(2);
    expect(notSpec.stderr).toContain("notes.yaml is not an OpenAPI document sync would publish");
    const outside = await runCli(["bundle", "../elsewhere.yaml"], { cwd: workspace });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("../elsewhere.yaml is outside the workspace");
  });
});
