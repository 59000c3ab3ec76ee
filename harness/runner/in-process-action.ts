/**
 * Runs the action in this process: `runAction` with the real host (`createCoreHost`) over a runner
 * that writes what `@actions/core` writes (workflow commands on a captured stdout, outputs and the
 * summary to the runner's files), with the environment `startActionLikeRunner` gives a process. A run
 * costs milliseconds instead of a Node start; the tests that prove the process's wiring (signals, the
 * bundle, unwritable runner files) start one with action-runner.ts.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, constants, existsSync, readFileSync } from "node:fs";
import { access, appendFile } from "node:fs/promises";
import { EOL } from "node:os";
import type { AnnotationProperties } from "@actions/core";
import type { RetryPolicy } from "../../src/adapters/gitbook/index.ts";
import type { StopSignal } from "../../src/core/run/stopped.ts";
import { createCoreHost, type Runner } from "../../src/hosts/action/core-host.ts";
import { defaultDependencies, type RunDependencies, runAction } from "../../src/hosts/action/run.ts";
import { gitBookServiceFactory } from "../../src/hosts/action/service.ts";
import {
  type RunnerOptions,
  type RunnerResult,
  resultOf,
  runnerEnvironment,
  runnerFiles,
} from "./action-runner.ts";

export interface InProcessOptions extends RunnerOptions {
  /** Replaces some of the run's dependencies: the service, the clock, the Git port, the polling. */
  dependencies?: Partial<RunDependencies>;
  /** The retry policy's delays (e.g. `{ baseDelayMs: 5 }`): a run through faults then waits milliseconds. */
  retry?: Partial<RetryPolicy>;
}

/**
 * Reads a spec being processed after 20 ms, then 1.5 times later up to 250 ms, and lists the specs at
 * most every 20 ms: the emulator's processing takes milliseconds, and the defaults' first second (half
 * a second between listings) would be most of a run's time.
 */
export const QUICK_POLLING: RunDependencies["polling"] = {
  schedule: { firstDelayMs: 20, growth: 1.5, maxDelayMs: 250, jitter: 0.05 },
  listIntervalMs: 20,
};

/** The action in this process, started; the signals a runner would send, sent by the test. */
export interface InProcessAction {
  /** Resolves once the log holds a match of `pattern`; rejects if the run ends first. */
  waitForLog(pattern: RegExp): Promise<void>;
  /** Delivers SIGINT or SIGTERM to the run, as the process's signal handlers would. */
  signal(signal: StopSignal): void;
  finished: Promise<RunnerResult>;
}

export async function runActionInProcess(options: InProcessOptions): Promise<RunnerResult> {
  return (await startActionInProcess(options)).finished;
}

export async function startActionInProcess(options: InProcessOptions): Promise<InProcessAction> {
  if (options.entry !== undefined || options.nodeArgs !== undefined || options.actionPath !== undefined) {
    throw new Error(
      "an entry, node arguments or another action's folder need a process: startActionLikeRunner",
    );
  }
  const files = await runnerFiles(options);
  const env = await runnerEnvironment(options, files);
  const runner = recordingRunner(env);
  const handlers = new Set<(signal: StopSignal) => void>();
  let exited: ((code: number) => void) | undefined;
  const exit = new Promise<number>((resolve) => {
    exited = resolve;
  });
  const deps: RunDependencies = {
    ...defaultDependencies,
    createService: gitBookServiceFactory(options.retry ? { retry: options.retry } : {}),
    polling: QUICK_POLLING,
    signals: {
      listen: (handler) => {
        handlers.add(handler);
        return () => handlers.delete(handler);
      },
      exit: (code) => exited?.(code),
    },
    ...options.dependencies,
  };
  const ended = Promise.race([
    runAction(createCoreHost(runner), deps).then(
      (code) => ({ exitCode: code ?? runner.exitCode, stderr: "" }),
      // An exception out of the run is what a process would print and end with 1 for.
      (error: unknown) => ({
        exitCode: 1,
        stderr: `${error instanceof Error ? error.stack : String(error)}\n`,
      }),
    ),
    exit.then((exitCode) => ({ exitCode, stderr: "" })),
  ]).then((end) => ({ ...end, stdout: runner.stdout() }));
  const finished = ended.then((end) => resultOf(files, end)).finally(() => files.remove());
  return {
    waitForLog: (pattern) => runner.waitForLog(pattern, ended),
    signal: (signal) => {
      for (const handler of [...handlers]) handler(signal);
    },
    finished,
  };
}

/**
 * `@actions/core` 3 as it writes to the runner (lib/command.js, lib/core.js, lib/file-command.js,
 * lib/summary.js), into a string and the runner's files named by `env`, so that a test reads this
 * process's run as it reads a started one.
 */
function recordingRunner(env: Record<string, string>) {
  let stdout = "";
  let exitCode = 0;
  const waiters = new Set<{ pattern: RegExp; resolve: () => void }>();
  const write = (text: string) => {
    stdout += text;
    for (const waiter of [...waiters]) {
      if (!waiter.pattern.test(stdout)) continue;
      waiters.delete(waiter);
      waiter.resolve();
    }
  };
  const issue = (name: string, properties: Record<string, unknown>, message: string) =>
    write(`${commandLine(name, properties, message)}${EOL}`);
  const annotate = (level: string) => (message: string, properties?: AnnotationProperties) =>
    issue(level, commandProperties(properties), message);
  const runner: Runner = {
    getInput: (name) => (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] || "").trim(),
    setSecret: (value) => issue("add-mask", {}, value),
    setOutput: (name, value) => {
      const file = env.GITHUB_OUTPUT;
      if (!file) {
        write(EOL);
        issue("set-output", { name }, value);
        return;
      }
      if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`);
      const delimiter = `ghadelimiter_${randomUUID()}`;
      appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, "utf8");
    },
    appendSummary: async (markdown) => {
      const file = env.GITHUB_STEP_SUMMARY ?? "";
      try {
        await access(file, constants.R_OK | constants.W_OK);
      } catch {
        throw new Error(
          `Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`,
        );
      }
      await appendFile(file, `${markdown}${EOL}`, "utf8");
    },
    setFailed: (message) => {
      exitCode = 1;
      issue("error", {}, message);
    },
    debug: (message) => issue("debug", {}, message),
    info: (message) => write(`${message}${EOL}`),
    notice: annotate("notice"),
    warning: annotate("warning"),
    error: annotate("error"),
    startGroup: (title) => issue("group", {}, title),
    endGroup: () => issue("endgroup", {}, ""),
    env,
    readFile: (file) => readFileSync(file, "utf8"),
  };
  return {
    ...runner,
    get exitCode() {
      return exitCode;
    },
    stdout: () => stdout,
    waitForLog(pattern: RegExp, ended: Promise<unknown>): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        if (pattern.test(stdout)) return resolve();
        waiters.add({ pattern, resolve });
        void ended.then(() =>
          reject(new Error(`the action ended before its log matched ${pattern}:\n${stdout}`)),
        );
      });
    },
  };
}

function commandProperties(properties: AnnotationProperties | undefined): Record<string, unknown> {
  if (!properties) return {};
  return {
    title: properties.title,
    file: properties.file,
    line: properties.startLine,
    endLine: properties.endLine,
    col: properties.startColumn,
    endColumn: properties.endColumn,
  };
}

/** `::name key=value,…::message`, escaped as `@actions/core` escapes. */
function commandLine(name: string, properties: Record<string, unknown>, message: string): string {
  const pairs = Object.entries(properties)
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}=${escapeProperty(commandValue(value))}`);
  return `::${name}${pairs.length > 0 ? ` ${pairs.join(",")}` : ""}::${escapeData(message)}`;
}

const commandValue = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
