import { readFileSync } from "node:fs";
import * as core from "@actions/core";
import type { Logger, SourceLocation } from "../logger.ts";
import type { ActionHost } from "./host.ts";

function annotation(location: SourceLocation | undefined): core.AnnotationProperties | undefined {
  if (!location) return undefined;
  return {
    file: location.file,
    ...(location.line ? { startLine: location.line } : {}),
    ...(location.column ? { startColumn: location.column } : {}),
  };
}

export const coreLogger: Logger = {
  debug: (message) => core.debug(message),
  info: (message) => core.info(message),
  notice: (message, location) => core.notice(message, annotation(location)),
  warning: (message, location) => core.warning(message, annotation(location)),
  error: (message, location) => core.error(message, annotation(location)),
  group: (title, body) => core.group(title, body),
};

/** The real runner, through `@actions/core`. */
export function createCoreHost(): ActionHost {
  return {
    readInput: (name) => core.getInput(name),
    setSecret: (value) => core.setSecret(value),
    setOutput: (name, value) => core.setOutput(name, value),
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(markdown, true).write();
    },
    setFailed: (message) => core.setFailed(message),
    logger: coreLogger,
    env: process.env,
    readFile: (path) => readFileSync(path, "utf8"),
  };
}
