import type { Logger } from "../../core/logger.ts";
import { RETRIES_WITHIN_DEADLINE } from "../http/retry.ts";
import { type ClientOptions, GitBookClient } from "./client.ts";

/** Where a host's GitBook calls go, and as whom. */
export interface GitBookConnection {
  token: string;
  apiUrl: string;
  /** The client's default (the Action's) when not given. */
  userAgent?: string;
}

/**
 * The one way a host makes its GitBook client. For a run (`run` given), every call ends by the run's
 * deadline, which is then the real bound: a transient failure is retried as long as time is left, and
 * each retry is logged so that a slow run explains itself. `tuning` shortens the waits (tests).
 */
export function connectGitBook(
  connection: GitBookConnection,
  run?: { deadline: number; logger: Logger; tuning?: Pick<ClientOptions, "retry" | "sleep"> },
): GitBookClient {
  return new GitBookClient({
    token: connection.token,
    baseUrl: connection.apiUrl,
    userAgent: connection.userAgent,
    ...(run && {
      deadline: run.deadline,
      ...(run.tuning?.sleep && { sleep: run.tuning.sleep }),
      retry: { maxRetries: RETRIES_WITHIN_DEADLINE, ...run.tuning?.retry },
      onRetry: ({ method, path, attempt, delayMs, reason }) =>
        run.logger.info(`Retrying ${method} ${path} in ${delayMs} ms (attempt ${attempt + 1}): ${reason}`),
    }),
  });
}
