import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toResultRecords } from "../../src/core/report/results-record.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { Output } from "../../src/hosts/cli/output.ts";
import { finishSync } from "../../src/hosts/cli/sync.ts";
import { runCli } from "./run-cli.ts";

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-sync-"));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("sync: flags checked before anything runs", () => {
  const env = { GITBOOK_TOKEN: "sync-test-token-123456", GITBOOK_ORGANIZATION: "acme" };

  it.each([
    [["--slug", "api/pets.yaml"], "--slug: "],
    [["--mode", "sometimes"], "--mode <mode>"],
    [["--source", "ftp"], "--source <source>"],
    [["--workspace", "/does/not/exist"], "--workspace: "],
    [["--merge-request", "abc"], "--merge-request: "],
    [["--token-file", "/does/not/exist"], "--token-file: cannot read"],
    [["--concurrency"], "--concurrency <n>"],
    [["--wait"], "unknown option '--wait'"],
  ])("%j exits with 2 naming the flag", async (args, named) => {
    const run = await runCli(["sync", ...args], { env, cwd: tmp });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(named);
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain(env.GITBOOK_TOKEN);
  });

  it("names the variable when the bad value came from the environment", async () => {
    const run = await runCli(["sync"], { env: { ...env, GITBOOK_SLUGS: "no-equals-sign" }, cwd: tmp });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("GITBOOK_SLUGS: ");
  });
});

function capture(): { output: Output; stdout: () => string } {
  let stdout = "";
  const output = new Output({
    env: {},
    cwd: tmp,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
  });
  return { output, stdout: () => stdout };
}

describe("finishSync", () => {
  const ok: SpecResult = { file: "a.yaml", slug: "a", status: "published", errors: [], durationMs: 10 };
  const failed: SpecResult = {
    file: "b.yaml",
    slug: "b",
    status: "failed",
    errors: ["bad"],
    errorCode: "PARSE_ERROR",
  };
  const timedOut: SpecResult = { file: "c.yaml", slug: "c", status: "timed-out", errors: [] };

  it("exits with 0 when every spec passed, 1 when one failed or timed out", async () => {
    const settings = { json: false, junitFile: undefined };
    expect(await finishSync([ok], settings, capture().output)).toBe(0);
    expect(await finishSync([ok, failed], settings, capture().output)).toBe(1);
    expect(await finishSync([ok, timedOut], settings, capture().output)).toBe(1);
    expect(await finishSync([], settings, capture().output)).toBe(0);
  });

  it("prints only the results as JSON with --json, and writes the JUnit report", async () => {
    const junitFile = path.join(tmp, "reports", "nested", "junit.xml");
    const { output, stdout } = capture();
    expect(await finishSync([ok, failed], { json: true, junitFile }, output)).toBe(1);
    expect(JSON.parse(stdout())).toEqual(toResultRecords([ok, failed]));
    const xml = await readFile(junitFile, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<testcase classname="b.yaml" name="b">');
    expect(xml).toContain('type="PARSE_ERROR"');
  });
});
