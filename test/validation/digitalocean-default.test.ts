/**
 * DigitalOcean's split description (3.0, 1,500 files; test/fixtures/REAL-SPECS.md) through `sync`, as a
 * newcomer runs it against the emulator: GitBook takes it, so by default it publishes, and its four
 * `properties: {$ref}` findings are warnings at the files and lines that write them (issue 27, item 1);
 * with `--strict` it is refused, the first line naming the setting, and nothing is uploaded.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { runCli } from "../cli/run-cli.ts";

const TOKEN = "lenient-default-token-7d2a";
const ROOT = "specification/DigitalOcean-public.v2.yaml";
const FINDINGS = [
  "specification/resources/load_balancers/loadBalancers_remove_droplets.yml:27:11",
  "specification/resources/load_balancers/models/load_balancer.yml:18:5",
  "specification/resources/load_balancers/models/load_balancer_create.yml:6:9",
  "specification/resources/load_balancers/models/load_balancer_create.yml:23:9",
];

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
let workspace: string;
let emulator: RunningEmulator;

beforeAll(async () => {
  workspace = mkdtempSync(path.join(tmpdir(), "digitalocean-default-"));
  execFileSync("tar", ["-xzf", path.join(fixtures, "digitalocean-openapi.tar.gz"), "-C", workspace]);
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const sync = (...flags: string[]) =>
  runCli(["sync", "--files", ROOT, "--workspace", workspace, "--slug", `${ROOT}=digitalocean`, ...flags], {
    cwd: workspace,
    env: {
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: "demo-org",
      GITHUB_REPOSITORY: "digitalocean/openapi",
    },
  });

/** The `file:line:col` of each line of `level` that says a `properties` holds a `$ref`. */
const placesOf = (stderr: string, level: "warning" | "error") =>
  stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith(`${level}: `) && line.includes("`properties` holds a `$ref`"))
    .map((line) => /^\w+: ([^:]+:\d+:\d+): /.exec(line)?.[1]);

describe("DigitalOcean's split spec", () => {
  it("publishes by default, with its four findings as warnings at their places, in the log and JUnit", async () => {
    const junit = path.join(workspace, "report.xml");
    const run = await sync("--junit", junit);
    expect(run.code).toBe(0);
    expect(placesOf(run.stderr, "warning")).toEqual(FINDINGS);
    expect(placesOf(run.stderr, "error")).toEqual([]);
    const report = readFileSync(junit, "utf8");
    expect(report).toContain("4 validation warnings (GitBook takes them; `strict: true` refuses them):");
    for (const place of FINDINGS) expect(report).toContain(`  ${place}: \`properties\` holds a \`$ref\``);
    expect(report).not.toContain("<failure");
    const spec = emulator.getSpec("demo-org", "digitalocean");
    expect(spec?.processingState).toBe("complete");
  });

  it("is refused with --strict, the first line naming the setting, and not uploaded again", async () => {
    const before = emulator.listVersions("demo-org", "digitalocean").length;
    const run = await sync("--strict", "--force");
    expect(run.code).toBe(1);
    const errors = run.stderr
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("error: "));
    expect(errors[0]).toBe(
      `error: ${ROOT}: refused by \`strict: true\`: 4 findings of the official OpenAPI schema, which GitBook accepts; without \`strict\` they are warnings and the spec publishes.`,
    );
    expect(placesOf(run.stderr, "error")).toEqual(FINDINGS);
    expect(emulator.listVersions("demo-org", "digitalocean")).toHaveLength(before);
  });
});
