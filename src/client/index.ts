export { type ClientOptions, DEFAULT_BASE_URL, DEFAULT_REQUEST_TIMEOUT_MS, GitBookClient } from "./client.ts";
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
} from "./errors.ts";
export { formatBytes, RESPONSE_CAPS, type ResponseCap } from "./limits.ts";
export { readVersionFiles } from "./parse.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.ts";
export type { RetryEvent } from "./transport.ts";
export type * from "./types.ts";
export { KNOWN_PROCESS_ERROR_CODES, KNOWN_PROCESSING_STATES } from "./types.ts";
export { DEFAULT_USER_AGENT } from "./user-agent.ts";
