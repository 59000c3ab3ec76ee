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
  return {
    readInput: (name) => core.getInput(name),
    setSecret: (value) => {
      core.setSecret(value);
      redactor.add(value);
    },
    setOutput: (name, value) => core.setOutput(name, redact(value)),
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(redact(markdown), true).write();
    },
    setFailed: (message) => core.setFailed(defuseCommands(redact(message))),
    logger: guardedLogger(coreLogger, redact),
    env: process.env,
    readFile: (path) => readFileSync(path, "utf8"),
  };
}
