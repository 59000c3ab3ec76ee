/**
 * Every output the CLI writes can fail, and a failure is the command's error: stdout to /dev/full (a
 * full disk: ENOSPC) or to a pipe whose reader is gone (EPIPE), a file over the size limit (EFBIG) —
 * exit 1 and one line on stderr naming the output, no stack trace. A flag naming an output file
 * refuses a FIFO (which would block for ever), a device or a folder at once, naming the flag and the
 * path. Each command runs as a new Node process whose streams are what a shell would give it.
 */
import { type StdioOptions, spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_SOURCE, type CliRun, collected, runCli, runCliProcess } from "./run-cli.ts";

let workspace: string;

const spec = (title: string, extra = "") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths:\n  /pets:\n    get:\n      responses:\n        "200":\n          description: ok\n${extra}`;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-output-errors-"));
  await writeFile(path.join(workspace, "a.yaml"), spec("A"));
  await writeFile(
    path.join(workspace, "b.yaml"),
    spec("B", '  /owners:\n    get:\n      responses:\n        "200":\n          description: ok\n'),
  );
  if (process.platform !== "win32") {
    await new Promise<void>((resolve, reject) =>
      spawn("mkfifo", [path.join(workspace, "fifo")]).on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`mkfifo exited ${code}`)),
      ),
    );
  }
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The CLI with stdout given (a file descriptor, or a pipe this test closes at once), stderr collected. */
function runWithStdout(args: readonly string[], stdout: "closed-pipe" | number): Promise<CliRun> {
  const stdio: StdioOptions = ["ignore", stdout === "closed-pipe" ? "pipe" : stdout, "pipe"];
  const child = spawn(process.execPath, [CLI_SOURCE, ...args], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
    stdio,
    timeout: 30_000,
  });
  // The reader goes away before the command writes anything: every write to stdout meets EPIPE.
  if (stdout === "closed-pipe") child.stdout?.destroy();
  return collected(child);
}

async function toDevFull(args: readonly string[]): Promise<CliRun> {
  const full = openSync("/dev/full", "w");
  try {
    return await runWithStdout(args, full);
  } finally {
    closeSync(full);
  }
}

const COMMANDS: [string, string[]][] = [
  ["--version", ["--version"]],
  ["bundle", ["bundle", "a.yaml"]],
  ["validate --json", ["validate", "--json"]],
  ["sync --json", ["sync", "--mode", "check", "--json", "--quiet"]],
  ["diff", ["diff", "a.yaml", "b.yaml"]],
  ["diff --json", ["diff", "a.yaml", "b.yaml", "--json"]],
];

const ENOSPC_LINE = "gitbook-openapi: error: cannot write to stdout: no space left on device (ENOSPC).";
const EPIPE_LINE =
  "gitbook-openapi: error: cannot write to stdout: the reading end of the pipe was closed (EPIPE).";

describe.runIf(existsSync("/dev/full"))("stdout on a full disk (/dev/full)", () => {
  for (const [name, args] of COMMANDS) {
    it(`${name}: exit 1, one line naming stdout`, async () => {
      const run = await toDevFull(args);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(ENOSPC_LINE);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe.runIf(process.platform !== "win32")("stdout to a pipe closed by its reader", () => {
  for (const [name, args] of COMMANDS) {
    it(`${name}: exit 1, one line naming stdout`, async () => {
      const run = await runWithStdout(args, "closed-pipe");
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(EPIPE_LINE);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe("files named by -o and --junit", () => {
  it.runIf(process.platform !== "win32")(
    "bundle -o <fifo> is refused at once, naming the flag (exit 2)",
    async () => {
      const run = await runCliProcess(["bundle", "a.yaml", "-o", "fifo"], { cwd: workspace });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.split("\n")[0]).toBe(
        `gitbook-openapi: error: --output: ${path.join(workspace, "fifo")} is a named pipe (FIFO), not a regular file: name a regular file or a new path.`,
      );
    },
  );

  it("bundle -o refuses a folder and a device", async () => {
    const folder = await runCli(["bundle", "a.yaml", "-o", tmpdir()], { cwd: workspace });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`--output: ${tmpdir()} is a directory, not a regular file`);
    if (existsSync("/dev/full")) {
      const device = await runCli(["bundle", "a.yaml", "-o", "/dev/full"], { cwd: workspace });
      expect(device.code).toBe(2);
      expect(device.stderr).toContain("--output: /dev/full is a device, not a regular file");
    }
  });

  it.runIf(process.platform !== "win32")(
    "sync --junit <fifo> is refused before the run (exit 2)",
    async () => {
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check", "--junit", "fifo"], {
        cwd: workspace,
      });
      expect(run.code).toBe(2);
      expect(run.stderr.split("\n")[0]).toBe(
        `gitbook-openapi: error: --junit: ${path.join(workspace, "fifo")} is a named pipe (FIFO), not a regular file: name a regular file or a new path.`,
      );
      expect(run.stderr).not.toContain("Plan (check)");
      const fromEnv = await runCli(["sync", "--workspace", workspace, "--mode", "check"], {
        cwd: workspace,
        env: { GITBOOK_JUNIT: workspace },
      });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain(`GITBOOK_JUNIT: ${workspace} is a directory`);
    },
  );

  // A file write that fails: a file-size limit of 0 (`ulimit -f 0`, SIGXFSZ ignored) makes every write
  // to a regular file fail with EFBIG, as a full disk makes it fail with ENOSPC.
  const limited = (args: string[]) =>
    collected(
      spawn(
        "sh",
        ["-c", `ulimit -f 0; trap '' XFSZ; exec "$0" "$@"`, process.execPath, CLI_SOURCE, ...args],
        {
          cwd: workspace,
          env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 30_000,
        },
      ),
    );

  it.runIf(process.platform === "linux")(
    "a failed write of -o's file: exit 1, one line naming it",
    async () => {
      const run = await limited(["bundle", "a.yaml", "-o", "out.yaml"]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toBe(
        `gitbook-openapi: error: --output: cannot write ${path.join(workspace, "out.yaml")}: the file is too large for this system or its limits (EFBIG).\n`,
      );
    },
  );

  it.runIf(process.platform === "linux")(
    "a failed write of the JUnit file: exit 1, the results still on stdout",
    async () => {
      const run = await limited(["sync", "--mode", "check", "--quiet", "--json", "--junit", "report.xml"]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
        `gitbook-openapi: error: --junit: cannot write ${path.join(workspace, "report.xml")}: the file is too large for this system or its limits (EFBIG).`,
      );
      expect(JSON.parse(run.stdout)).toHaveLength(2);
      expect(await readFile(path.join(workspace, "report.xml"), "utf8")).toBe("");
    },
  );
});

describe("in process", () => {
  it.each([
    ["--junit", "report.xml"],
    ["--codequality", "quality.json"],
  ])(
    "%s under a path that is a file: exit 1, one line naming the flag, no system call's words",
    async (flag, name) => {
      const file = path.join("a.yaml", name);
      const run = await runCli(["sync", "--mode", "check", "--quiet", flag, file], { cwd: workspace });
      expect(run.code, run.stderr).toBe(1);
      const last = run.stderr.trimEnd().split("\n").at(-1);
      expect(last).toMatch(new RegExp(`^gitbook-openapi: error: ${flag}: cannot write `));
      expect(last).not.toContain("mkdir");
    },
  );

  it("a stream whose writes failed turns success into exit 1, with the line on stderr", async () => {
    let stderr = "";
    const broken = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    const code = await (await import("../../src/hosts/cli/program.ts")).runCli(["bundle", "a.yaml"], {
      env: { NO_COLOR: "1" },
      cwd: workspace,
      stdout: { write: () => true, settled: async () => broken },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(1);
    expect(stderr).toBe(`${EPIPE_LINE}\n`);
  });
});
