import { GitBookClient } from "../client/index.ts";
import type { ActionConfig } from "../config/config.ts";
import type { Logger } from "../logger.ts";
import type { SpecService } from "../sync/ports.ts";
import type { OrganizationDirectory } from "./organization.ts";

export type RunService = SpecService & OrganizationDirectory & { close(): Promise<void> };
export type ServiceFactory = (config: ActionConfig, logger: Logger) => RunService;

/** The real service, through our typed client; retries are logged so slow runs explain themselves. */
export const createGitBookService: ServiceFactory = (config, logger) =>
  new GitBookClient({
    token: config.token ?? "",
    baseUrl: config.apiUrl,
    onRetry: ({ method, path, attempt, delayMs, reason }) =>
      logger.info(`Retrying ${method} ${path} in ${delayMs} ms (attempt ${attempt + 1}): ${reason}`),
  });
