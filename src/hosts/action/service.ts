import { type ClientOptions, GitBookClient } from "../../adapters/gitbook/index.ts";
import { RETRIES_WITHIN_DEADLINE } from "../../adapters/http/retry.ts";
import type { Logger } from "../../core/logger.ts";
import type { RunSettings } from "../../core/plan/run-settings.ts";
import type { RunService } from "../../core/ports.ts";
export interface ServiceOptions {
  /** Epoch milliseconds by which every request, retry and wait of the run ends. */
  deadline: number;
}

export type ServiceFactory = (config: RunSettings, logger: Logger, options: ServiceOptions) => RunService;

/**
 * The real service, through our typed client; retries are logged so slow runs explain themselves.
 * `retry` and `sleep` change how long a retry waits (a test through faults: milliseconds, not seconds).
 */
export function gitBookServiceFactory(
  overrides: Pick<ClientOptions, "retry" | "sleep"> = {},
): ServiceFactory {
  return (config, logger, { deadline }) =>
    new GitBookClient({
      token: config.token ?? "",
      baseUrl: config.apiUrl,
      deadline,
      ...overrides,
      // The run's deadline is the real bound: a transient failure is retried as long as time is left.
      retry: { maxRetries: RETRIES_WITHIN_DEADLINE, ...overrides.retry },
      onRetry: ({ method, path, attempt, delayMs, reason }) =>
        logger.info(`Retrying ${method} ${path} in ${delayMs} ms (attempt ${attempt + 1}): ${reason}`),
    });
}

export const createGitBookService: ServiceFactory = gitBookServiceFactory();
