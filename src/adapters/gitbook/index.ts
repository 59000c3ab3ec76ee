export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GitBookApiError,
  GitBookCallDeadlineError,
  GitBookConnectionError,
  GitBookDeadlineError,
  GitBookError,
  GitBookTimeoutError,
  InvalidArgumentError,
  InvalidSlugError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RedactedRequest,
  type RequestSubject,
  ResponseTooLargeError,
  ServerError,
  UnexpectedRedirectError,
  UnexpectedResponseError,
} from "../../core/service/errors.ts";
export { readVersionFiles } from "../../core/service/parse.ts";
export type * from "../../core/service/types.ts";
export { KNOWN_PROCESS_ERROR_CODES, KNOWN_PROCESSING_STATES } from "../../core/service/types.ts";
export { formatBytes, RESPONSE_CAPS, type ResponseCap } from "../http/limits.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry.ts";
export type { RetryEvent } from "../http/transport.ts";
export { DEFAULT_USER_AGENT } from "../http/user-agent.ts";
export { type ClientOptions, DEFAULT_BASE_URL, DEFAULT_REQUEST_TIMEOUT_MS, GitBookClient } from "./client.ts";
export { connectGitBook, type GitBookConnection } from "./connect.ts";
