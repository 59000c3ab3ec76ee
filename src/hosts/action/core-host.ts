import { readFileSync } from "node:fs";
import * as core from "@actions/core";
import { guardedLogger, type Logger, type SourceLocation } from "../../core/logger.ts";
import { defuseCommands } from "../../core/text/log-protocol.ts";
import { Redactor } from "../../core/text/redact.ts";
import type { ActionHost } from "./host.ts";

/**
 * The runner as the host reaches it: `@actions/core`'s calls, the environment and the file system.
 * The process's own by default; a test gives one that records, to run the action in its process.
 */
export interface Runner {
  getInput(name: string): string;
  setSecret(value: string): void;
  setOutput(name: string, value: string): void;
  /** Appends to the job summary; throws when it cannot be written. */
  appendSummary(markdown: string): Promise<void>;
  setFailed(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  notice(message: string, properties?: core.AnnotationProperties): void;
  warning(message: string, properties?: core.AnnotationProperties): void;
  error(message: string, properties?: core.AnnotationProperties): void;
  startGroup(title: string): void;
  endGroup(): void;
  readonly env: NodeJS.ProcessEnv;
  readFile(path: string): string;
}

/** The real runner: this process's `@actions/core`, environment and files. */
export const processRunner: Runner = {
  getInput: (name) => core.getInput(name),
  setSecret: (value) => core.setSecret(value),
  setOutput: (name, value) => core.setOutput(name, value),
  appendSummary: async (markdown) => {
    try {
      await core.summary.addRaw(markdown, true).write();
    } catch (error) {
      core.summary.emptyBuffer();
      throw error;
    }
  },
  setFailed: (message) => core.setFailed(message),
  debug: (message) => core.debug(message),
  info: (message) => core.info(message),
  notice: (message, properties) => core.notice(message, properties),
  warning: (message, properties) => core.warning(message, properties),
  error: (message, properties) => core.error(message, properties),
  startGroup: (title) => core.startGroup(title),
  endGroup: () => core.endGroup(),
  env: process.env,
  readFile: (path) => readFileSync(path, "utf8"),
};

function annotation(location: SourceLocation | undefined): core.AnnotationProperties | undefined {
  if (!location) return undefined;
  return {
    file: location.file,
    ...(location.line ? { startLine: location.line } : {}),
    ...(location.column ? { startColumn: location.column } : {}),
  };
}

/** The runner's log as it is: `info` writes its text raw, so callers go through {@link guardedLogger}. */
function runnerLogger(runner: Runner): Logger {
  return {
    debug: (message) => runner.debug(message),
    info: (message) => runner.info(message),
    notice: (message, location) => runner.notice(message, annotation(location)),
    warning: (message, location) => runner.warning(message, annotation(location)),
    error: (message, location) => runner.error(message, annotation(location)),
    group: (title, body) => {
      runner.startGroup(title);
      try {
        body();
      } finally {
        runner.endGroup();
      }
    },
  };
}

/**
 * The runner, through `@actions/core`. Every secret given to `setSecret` is masked by the runner
 * and also redacted here, with its fragments, from everything the host emits: log lines, annotations,
 * the job summary, outputs and the failure message; log lines are defused so that none of them can be
 * read as a workflow command the action did not issue.
 */
export function createCoreHost(runner: Runner = processRunner): ActionHost {
  const redactor = new Redactor();
  const { redact } = redactor;
  const setFailed = (message: string) => runner.setFailed(defuseCommands(redact(message)));
  // A file of the runner that cannot be written (a full disk) fails the step, said once per file, and
  // the rest of the run's report is still written.
  const failed = new Set<string>();
  const writeFailed = (variable: string, what: string, error: unknown) => {
    if (failed.has(variable)) return;
    failed.add(variable);
    const reason = error instanceof Error ? error.message : String(error);
    setFailed(`Could not write ${what} to ${runner.env[variable] ?? variable} (${variable}): ${reason}`);
  };
  return {
    readInput: (name) => runner.getInput(name),
    setSecret: (value) => {
      runner.setSecret(value);
      redactor.add(value);
    },
    setOutput: (name, value) => {
      try {
        runner.setOutput(name, redact(value));
      } catch (error) {
        writeFailed("GITHUB_OUTPUT", "the step's outputs", error);
      }
    },
    appendSummary: async (markdown) => {
      if (!runner.env.GITHUB_STEP_SUMMARY) return;
      try {
        await runner.appendSummary(redact(markdown));
      } catch (error) {
        writeFailed("GITHUB_STEP_SUMMARY", "the job summary", error);
      }
    },
    setFailed,
    logger: guardedLogger(runnerLogger(runner), redact),
    env: runner.env,
    readFile: (path) => runner.readFile(path),
  };
}
