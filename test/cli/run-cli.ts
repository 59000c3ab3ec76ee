import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI_SOURCE = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
export const CLI_DIST = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as a shell would: a new Node process with these arguments and only these variables
 * (plus PATH), its output collected. Asynchronous, so that an emulator in this process can answer.
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; entry?: string } = {},
): Promise<CliRun> {
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI_SOURCE, ...args], {
      env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
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
