/**
 * `npm run demo` (scripts/demo.ts) as a user runs it: it must show what the README's "Try it" says — a
 * failure with GitBook's error code, an unchanged re-run, a pull request's comment — with links to the
 * emulator only. The demo checks its own claims and exits 1 when one does not hold.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "../../harness/runner/action-runner.ts";

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repositoryRoot, "scripts", "demo.ts")], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run demo", () => {
  it("shows a refused spec, an unchanged re-run and a pull request's comment, linking only to the emulator", async () => {
    const demo = await runDemo();
    expect(demo.code, `${demo.stdout}\n${demo.stderr}`).toBe(0);
    expect(demo.stdout).not.toContain("!! The demo did not show");
    expect(demo.stdout).toMatch(/GitBook could not process specs\/billing\.openapi\.yaml \(PARSE_ERROR\)/);
    expect(demo.stdout).toMatch(/^unchanged: 3$/m);
    expect(demo.stdout).toContain("- **POST /widgets** (createWidget)");
    const emulator = /^Emulator of the GitBook API on (http:\/\/127\.0\.0\.1:\d+)/m.exec(demo.stdout)?.[1];
    expect(emulator).toBeDefined();
    expect(demo.stdout).toContain(`${emulator}/o/demo-org/openapi/specs-billing`);
    expect(demo.stdout).not.toMatch(/https:\/\/(app|api)\.gitbook\.com/);
  }, 60_000);
});
