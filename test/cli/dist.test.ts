import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import type { Spec } from "../../src/core/service/types.ts";
import { PETSTORE_YAML } from "../support/emulator-fixtures.ts";
import { CLI_DIST, runCli } from "./run-cli.ts";

// The committed bundle, as `npx gitbook-openapi` runs it: CI runs the tests before it rebuilds dist/,
// so this checks what users get (a fresh build is compared with the committed one afterwards).
const TOKEN = "dist-smoke-token-7c1e9b";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, forbiddenOrganizations: ["secret-org"] });
  emulator.seedSpec("demo-org", "pets", PETSTORE_YAML);
});

afterAll(async () => {
  await emulator?.close();
});

describe("dist/cli.js", () => {
  it("is an executable file with a #! line", async () => {
    const file = await stat(CLI_DIST);
    expect(file.mode & 0o111).not.toBe(0);
  });

  it("answers --version and -V as the command line's own parser does, and --help with the help", async () => {
    const parsed = await runCli(["--version"]);
    expect(parsed.stdout).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ["--version", "-V"]) {
      const built = await runCli([flag], { entry: CLI_DIST });
      expect({ code: built.code, stdout: built.stdout, stderr: built.stderr }).toEqual({
        code: 0,
        stdout: parsed.stdout,
        stderr: "",
      });
    }
    const help = await runCli(["--help"], { entry: CLI_DIST });
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runCli(["--help"])).stdout);
  });

  it("lists specifications from the emulator", async () => {
    const run = await runCli(["specs", "list", "-o", "demo-org", "--json"], {
      entry: CLI_DIST,
      env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Spec[]).map((spec) => spec.slug)).toEqual(["pets"]);
  });

  it("exits with 3 when the organization is refused, and 2 on a bad flag", async () => {
    const env = { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl };
    const refused = await runCli(["specs", "list", "-o", "secret-org"], { entry: CLI_DIST, env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).not.toContain(TOKEN);
    const bad = await runCli(["specs", "list", "--nope"], { entry: CLI_DIST, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--nope");
  });

  it("prepares a split spec in the worker its own chunk starts, and publishes it", async () => {
    // The split spec goes to the preparation's worker (src/core/prepare/prepare-worker.ts), which runs the
    // chunk of dist/ that holds it: were that chunk unable to serve, the worker would exit and the spec
    // fail with INTERNAL_ERROR.
    const workspace = await mkdtemp(path.join(tmpdir(), "dist-worker-"));
    try {
      await writeFile(
        path.join(workspace, "api.yaml"),
        'openapi: 3.0.3\ninfo: {title: Split, version: "1.0.0"}\npaths:\n  /a:\n    $ref: "./path.yaml"\n',
      );
      await writeFile(
        path.join(workspace, "path.yaml"),
        'get:\n  x-codeSamples: 5\n  responses:\n    "200": {description: ok}\n',
      );
      const run = await runCli(["sync", "--workspace", workspace, "--json", "--timeout", "20"], {
        entry: CLI_DIST,
        env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: "demo-org" },
      });
      const results = JSON.parse(run.stdout) as { file: string; status: string; errorCode: string | null }[];
      expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([["api.yaml", "published", null]]);
      // The worker's warnings reach the log (replayed in the spec's group).
      expect(run.stderr).toMatch(/path\.yaml:2:3: `x-codeSamples` of GET \/a is the number 5/);
      expect(run.code).toBe(0);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
