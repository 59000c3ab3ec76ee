import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compileCache } from "../../harness/runner/action-runner.ts";
import { QUICK_POLLING } from "../../harness/runner/in-process-action.ts";
import type { SyncTiming } from "../../src/hosts/cli/output.ts";
import { runCli as runInProcess } from "../../src/hosts/cli/program.ts";

export const CLI_SOURCE = fileURLToPath(new URL("../../src/hosts/cli/main.ts", import.meta.url));
export const CLI_DIST = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with these arguments and only these variables (plus PATH), its output collected: in this
 * process, through the same `runCli(argv, io)` that `src/hosts/cli/main.ts` calls with the process's own, so
 * that most tests cost milliseconds; in a new Node process, as a shell would start it, when `entry` names
 * the file to run (the sources' main or the built `dist/cli.js`). In process, a spec being processed is
 * polled every few milliseconds (`QUICK_POLLING`) unless `timing` says otherwise.
 */
export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; entry?: string; timing?: SyncTiming } = {},
): Promise<CliRun> {
  if (options.entry !== undefined) return runCliProcess(args, { ...options, entry: options.entry });
  let stdout = "";
  let stderr = "";
  const code = await runInProcess(args, {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...options.env },
    cwd: options.cwd ?? process.cwd(),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    timing: { polling: QUICK_POLLING, ...options.timing },
  });
  return { code, stdout, stderr };
}

/**
 * The CLI as a new Node process: argv, only the given variables (plus PATH), exit code and streams.
 * `killAfterMs` ends it with SIGKILL after that long (a blocked event loop ignores SIGTERM): a test of
 * something that once hung then fails instead of hanging; by default SIGTERM after 30 s.
 */
export function runCliProcess(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; entry?: string; killAfterMs?: number } = {},
): Promise<CliRun> {
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...compileCache(), ...options.env };
  return collected(
    spawn(process.execPath, [options.entry ?? CLI_SOURCE, ...args], {
      env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: options.killAfterMs ?? 30_000,
      ...(options.killAfterMs !== undefined ? { killSignal: "SIGKILL" as const } : {}),
    }),
  );
}

/** A started process's exit code and what it wrote to the streams this side reads (piped ones). */
export function collected(child: ChildProcess): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
