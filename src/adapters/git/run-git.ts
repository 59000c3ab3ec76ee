/**
 * One git process, bounded: its output read up to a cap (or handed chunk by chunk to a reader), its
 * error output kept to its first few KiB, ended at its deadline. Every way it can go wrong (no git, a
 * write to a process that has gone, a process that dies or hangs) is an answer, never a throw.
 */
import { spawn } from "node:child_process";

export interface GitRun {
  /** The exit code; undefined when the process could not start, was killed or timed out. */
  code: number | undefined;
  stdout: Buffer;
  /** The first 4 KiB of what it wrote to stderr, trimmed. */
  stderr: string;
  /** Why it did not end by itself with an exit code: not started, killed by a signal, over its time. */
  failure?: string;
}

export interface GitRunOptions {
  /** Epoch ms: past it the process is killed and the run says so. */
  deadline: number;
  /** Written to its stdin, then stdin is closed. */
  input?: string;
  /** The most bytes of stdout kept; past it the process is killed (`failure` says so). */
  maxStdout?: number;
  /**
   * Reads stdout itself (nothing is kept): each chunk in order, awaited, so that a slow reader holds the
   * process back. Throwing ends the process; the error's message becomes `failure`.
   */
  read?: (stdout: AsyncIterable<Buffer>) => Promise<void>;
  env?: Readonly<Record<string, string>>;
}

const STDERR_BYTES = 4096;
/** After a kill, how long the process's pipes are waited for (a child of git may hold them) before they are closed. */
const KILL_GRACE_MS = 1000;

export function runGit(workspace: string, args: readonly string[], options: GitRunOptions): Promise<GitRun> {
  return new Promise((resolve) => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      resolve({ code: undefined, stdout: Buffer.alloc(0), stderr: "", failure: "its time budget was spent" });
      return;
    }
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn("git", ["-C", workspace, ...args], {
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", ...options.env },
      });
    } catch (error) {
      resolve({
        code: undefined,
        stdout: Buffer.alloc(0),
        stderr: "",
        failure: `git could not start: ${messageOf(error)}`,
      });
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let failure: string | undefined;
    let done = false;
    let grace: NodeJS.Timeout | undefined;
    const fail = (why: string) => {
      failure ??= why;
      child.kill();
      // A process that ignores the kill, or a child of it that holds the pipes, does not hold the run.
      grace ??= setTimeout(() => {
        child.kill("SIGKILL");
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
        void reading.then(() => finish(null, null));
      }, KILL_GRACE_MS);
    };
    const timer = setTimeout(
      () => fail(`it took longer than its ${Math.round(remaining / 100) / 10} s budget`),
      remaining,
    );
    child.on("error", (error: NodeJS.ErrnoException) => {
      fail(error.code === "ENOENT" ? "git is not installed or not on PATH" : `git failed: ${error.message}`);
      // A process that never started emits no "close" of its own.
      if (child.pid === undefined) finish(null, null);
    });
    // A process that ends before reading its input makes writes fail (EPIPE): its exit code says why.
    child.stdin?.on("error", () => {});
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_BYTES) stderr = Buffer.concat([stderr, chunk]).subarray(0, STDERR_BYTES);
    });
    const reading = options.read
      ? options.read(child.stdout as AsyncIterable<Buffer>).catch((error: unknown) => {
          fail(messageOf(error));
          child.stdout?.resume();
        })
      : new Promise<void>((finished) => {
          child.stdout?.on("data", (chunk: Buffer) => {
            if (stdoutBytes + chunk.length > (options.maxStdout ?? Number.POSITIVE_INFINITY)) {
              fail(`its output was larger than ${options.maxStdout} bytes`);
              return;
            }
            stdoutBytes += chunk.length;
            stdout.push(chunk);
          });
          child.stdout?.on("close", () => finished());
        });
    child.stdin?.end(options.input ?? "");
    function finish(code: number | null, signal: NodeJS.Signals | null) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      resolve({
        code: failure || code === null ? undefined : code,
        stdout: Buffer.concat(stdout),
        stderr: stderr.toString("utf8").trim(),
        ...(failure
          ? { failure }
          : code === null
            ? { failure: `git was ended by ${signal ?? "a signal"}` }
            : {}),
      });
    }
    child.on("close", (code, signal) => {
      void reading.then(() => finish(code, signal));
    });
  });
}

/** What a failed git process said, in one short line: its failure, else its first error line, else its code. */
export function gitProblem(run: GitRun): string {
  if (run.failure) return run.failure;
  const lines = run.stderr.split(/\r?\n/).filter((line) => line.trim() !== "");
  const said = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1);
  return said ? `git exited with ${run.code}: ${said.slice(0, 300)}` : `git exited with ${run.code}`;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}
