/**
 * vitest started by an older Node.js than the project's (node_modules/.bin/node) stops at its
 * configuration with one line that names the way that works, instead of failing later in vitest's own
 * reporter. The older Node.js here is the `node22` devDependency, which `npm ci` installs.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("running the tests with an older Node.js", () => {
  it("exits 1 with one line that says to use npm test or npx vitest", async () => {
    const node22 = path.join(ROOT, "node_modules", "node22", "bin", "node");
    const vitest = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const failure = await run(node22, [vitest, "run", "test/git/commits.test.ts"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
      timeout: 60_000,
    }).then(
      () => undefined,
      (error: { code?: unknown; stdout?: string; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toBe("");
    expect(failure?.stderr).toMatch(
      /^The tests run on the project's Node\.js 24 \(node_modules\/\.bin\/node\), not Node\.js 22\.19\.0 \(.*\): use `npm test` or `npx vitest run <file>`\.\n$/,
    );
  });
});
