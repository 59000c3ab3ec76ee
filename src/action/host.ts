import type { Logger } from "../logger.ts";

/** Everything the action does to the runner, behind one narrow interface (see core-host.ts). */
export interface ActionHost {
  /** One input, trimmed; "" when not set. */
  readInput(name: string): string;
  /** Hides a value in every later log line. */
  setSecret(value: string): void;
  setOutput(name: string, value: string): void;
  appendSummary(markdown: string): Promise<void>;
  setFailed(message: string): void;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  readFile(path: string): string;
}
