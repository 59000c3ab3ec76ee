import type { Logger } from "../../core/logger.ts";

/**
 * Everything the action does to the runner, behind one narrow interface (see core-host.ts). What it
 * emits is written as the runner's protocol requires: no log line it writes is read as a workflow
 * command that the action did not issue.
 */
export interface ActionHost {
  /** One input, trimmed; "" when not set. */
  readInput(name: string): string;
  /**
   * Hides a value from everything the host emits later: the runner masks it in the log, and the host
   * redacts it, whole or in pieces of 8+ characters, from log lines, annotations, the summary, outputs
   * and the failure message (see core-host.ts).
   */
  setSecret(value: string): void;
  setOutput(name: string, value: string): void;
  appendSummary(markdown: string): Promise<void>;
  setFailed(message: string): void;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  readFile(path: string): string;
}
