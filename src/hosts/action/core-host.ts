import { readFileSync } from "node:fs";
import * as core from "@actions/core";
import { guardedLogger, type Logger, type SourceLocation } from "../../core/logger.ts";
import { defuseCommands } from "../../core/text/log-protocol.ts";
import { Redactor } from "../../core/text/redact.ts";
import type { ActionHost } from "./host.ts";

function annotation(location: SourceLocation | undefined): core.AnnotationProperties | undefined {
  if (!location) return undefined;
  return {
    file: location.file,
    ...(location.line ? { startLine: location.line } : {}),
    ...(location.column ? { startColumn: location.column } : {}),
  };
}

/** `@actions/core` as it is: `info` writes its text raw, so callers go through {@link guardedLogger}. */
const coreLogger: Logger = {
  debug: (message) => core.debug(message),
  info: (message) => core.info(message),
  notice: (message, location) => core.notice(message, annotation(location)),
  warning: (message, location) => core.warning(message, annotation(location)),
  error: (message, location) => core.error(message, annotation(location)),
  group: (title, body) => {
    core.startGroup(title);
    try {
      body();
    } finally {
      core.endGroup();
    }
  },
};

/**
 * The real runner, through `@actions/core`. Every secret given to `setSecret` is masked by the runner
 * and also redacted here, with its fragments, from everything the host emits: log lines, annotations,
 * the job summary, outputs and the failure message; log lines are defused so that none of them can be
 * read as a workflow command the action did not issue.
 */
export function createCoreHost(): ActionHost {
  const redactor = new Redactor();
  const { redact } = redactor;
  const setFailed = (message: string) => core.setFailed(defuseCommands(redact(message)));
  // A file of the runner that cannot be written (a full disk) fails the step, said once per file, and
  // the rest of the run's report is still written.
  const failed = new Set<string>();
  const writeFailed = (variable: string, what: string, error: unknown) => {
    if (failed.has(variable)) return;
    failed.add(variable);
    const reason = error instanceof Error ? error.message : String(error);
    setFailed(`Could not write ${what} to ${process.env[variable] ?? variable} (${variable}): ${reason}`);
  };
  return {
    readInput: (name) => core.getInput(name),
    setSecret: (value) => {
      core.setSecret(value);
      redactor.add(value);
    },
    setOutput: (name, value) => {
      try {
        core.setOutput(name, redact(value));
      } catch (error) {
        writeFailed("GITHUB_OUTPUT", "the step's outputs", error);
      }
    },
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      try {
        await core.summary.addRaw(redact(markdown), true).write();
      } catch (error) {
        core.summary.emptyBuffer();
        writeFailed("GITHUB_STEP_SUMMARY", "the job summary", error);
      }
    },
    setFailed,
    logger: guardedLogger(coreLogger, redact),
    env: process.env,
    readFile: (path) => readFileSync(path, "utf8"),
  };
}
