import { type ClientOptions, connectGitBook } from "../../adapters/gitbook/index.ts";
import type { Logger } from "../../core/logger.ts";
import type { RunSettings } from "../../core/plan/run-settings.ts";
import type { RunService } from "../../core/ports.ts";
export interface ServiceOptions {
  /** Epoch milliseconds by which every request, retry and wait of the run ends. */
  deadline: number;
}

export type ServiceFactory = (config: RunSettings, logger: Logger, options: ServiceOptions) => RunService;

/**
 * The real service, through our typed client. `retry` and `sleep` change how long a retry waits (a test
 * through faults: milliseconds, not seconds).
 */
export function gitBookServiceFactory(tuning: Pick<ClientOptions, "retry" | "sleep"> = {}): ServiceFactory {
  return (config, logger, { deadline }) =>
    connectGitBook({ token: config.token ?? "", apiUrl: config.apiUrl }, { deadline, logger, tuning });
}

export const createGitBookService: ServiceFactory = gitBookServiceFactory();
