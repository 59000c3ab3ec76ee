/**
 * `redocly lint` (@redocly/cli, a devDependency) as a user runs it, offline: telemetry and the update
 * check off, a local configuration that extends `recommended`.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const redoclyCli = join(
  dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
  "bin",
  "cli.js",
);
export const quietRedocly = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
};

export interface LintProblem {
  ruleId: string;
  message: string;
}

/** Every problem `redocly lint` reports on `file` with the `recommended` rules. */
export async function redoclyLint(file: string, configFolder: string): Promise<LintProblem[]> {
  const config = join(configFolder, "redocly.yaml");
  writeFileSync(config, "extends:\n  - recommended\n");
  // Exits 1 when it finds errors: the report is on stdout either way.
  const { stdout } = await run(
    process.execPath,
    [redoclyCli, "lint", file, "--format=json", "--max-problems=1000000", `--config=${config}`],
    { env: quietRedocly, maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(stdout) as { problems: LintProblem[] };
  return report.problems.map(({ ruleId, message }) => ({ ruleId, message }));
}

/** The problems of `bundle` that `source` does not have (counting each rule and message). */
export function newProblems(source: LintProblem[], bundle: LintProblem[]): string[] {
  const count = new Map<string, number>();
  for (const { ruleId, message } of source) {
    const key = `${ruleId}: ${message}`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const added: string[] = [];
  for (const { ruleId, message } of bundle) {
    const key = `${ruleId}: ${message}`;
    const left = count.get(key) ?? 0;
    if (left === 0) added.push(key);
    else count.set(key, left - 1);
  }
  return added;
}
