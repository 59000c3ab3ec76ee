/**
 * Errors of the GitBook client. Every error names the HTTP call it comes from and says what to do; none
 * of them ever holds the API token: requests are described by {@link RedactedRequest}, whose
 * `authorization` header is replaced by `Bearer [REDACTED]` (the idea of `@octokit/request-error`).
 */

import { formatBytes } from "../text/bytes.ts";

/** What an error may tell about the request that failed. Safe to log. */
export interface RedactedRequest {
  method: string;
  /** Full URL (the base URL never carries credentials, the client refuses those). */
  url: string;
  /** Path of the URL including the query, e.g. `/v1/orgs/acme/openapi?limit=10`. */
  path: string;
  headers: Record<string, string>;
}

/** Which resource a request is about, so that 403/404 messages can name it. */
export interface RequestSubject {
  /** The operation id of the published description, e.g. `getOpenAPISpecBySlug`. */
  operation: string;
  orgId?: string;
  slug?: string;
  versionId?: string;
  domain?: string;
}

export class GitBookError extends Error {
  override name = "GitBookError";
}

/** An argument or option the caller passed is invalid; nothing was sent. */
export class InvalidArgumentError extends GitBookError {
  override name = "InvalidArgumentError";
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(message);
    this.argument = argument;
  }
}

/** A specification slug breaks the slug rule; nothing was sent. */
export class InvalidSlugError extends InvalidArgumentError {
  override name = "InvalidSlugError";
  readonly slug: string;

  constructor(slug: string, reason: string) {
    super(
      "slug",
      `Invalid specification slug ${JSON.stringify(slug)}: ${reason}. ` +
        "Slugs are 1 to 100 characters of lowercase letters and digits, in words joined by single hyphens " +
        '(e.g. "payments-api").',
    );
    this.slug = slug;
  }
}

interface RequestErrorInit {
  request: RedactedRequest;
  subject: RequestSubject;
  /** How many attempts were made before giving up. */
  attempts: number;
  cause?: unknown;
}

function attemptsNote(attempts: number): string {
  return attempts > 1 ? ` (gave up after ${attempts} attempts)` : "";
}

export interface ApiErrorInit extends RequestErrorInit {
  status: number;
  statusText?: string;
  /** The service's error code from `{"error": {"code"}}`, when the body has one. */
  code?: number | string;
  serviceMessage?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The `Location` header's origin, for redirects (never the full location, never followed). */
  redirectOrigin?: string;
  /** Overrides the advice the class gives by default. */
  advice?: string;
  /** Said after the advice, e.g. that the body was over its cap and not read. */
  note?: string;
}

/** The service answered with a status that is not a success. */
export class GitBookApiError extends GitBookError {
  override name = "GitBookApiError";
  readonly status: number;
  readonly code: number | string | undefined;
  readonly serviceMessage: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly request: RedactedRequest;
  readonly subject: RequestSubject;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(init: ApiErrorInit, defaultAdvice: string) {
    const said = init.serviceMessage ?? init.statusText ?? "";
    const advice = init.advice ?? defaultAdvice;
    super(
      `${init.request.method} ${init.request.path} failed: ${init.status}${said ? ` ${said}` : ""}` +
        `${said.endsWith(".") ? "" : "."}${advice ? ` ${advice}` : ""}${init.note ? ` ${init.note}` : ""}` +
        attemptsNote(init.attempts),
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.method = init.request.method;
    this.path = init.request.path;
    this.request = init.request;
    this.subject = init.subject;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
  }
}

function orgName(subject: RequestSubject): string {
  return subject.orgId === undefined ? "the organization" : `organization ${JSON.stringify(subject.orgId)}`;
}

/** A 3xx: the client never follows redirects, so that the token only goes to the base URL's origin. */
export class UnexpectedRedirectError extends GitBookApiError {
  override name = "UnexpectedRedirectError";
  readonly redirectOrigin: string | undefined;

  constructor(init: ApiErrorInit) {
    super(
      init,
      `The service redirected${init.redirectOrigin ? ` to ${init.redirectOrigin}` : ""}; the client does not ` +
        "follow redirects, so that the token is only sent to the base URL. Check the API URL.",
    );
    this.redirectOrigin = init.redirectOrigin;
  }
}

export class BadRequestError extends GitBookApiError {
  override name = "BadRequestError";
  constructor(init: ApiErrorInit) {
    super(init, "The service rejected the request; fix the input the message names.");
  }
}

export class AuthenticationError extends GitBookApiError {
  override name = "AuthenticationError";
  constructor(init: ApiErrorInit) {
    super(
      init,
      "The token is missing, invalid or expired: create a token in GitBook's developer settings " +
        "(https://app.gitbook.com/account/developer) and pass it as the `token` input / GITBOOK_TOKEN.",
    );
  }
}

export class PermissionDeniedError extends GitBookApiError {
  override name = "PermissionDeniedError";
  constructor(init: ApiErrorInit) {
    super(
      init,
      init.subject.orgId === undefined
        ? "The token is not allowed to do this; check the token's permissions."
        : `The token cannot access ${orgName(init.subject)}: check the organization id and that the ` +
            "token's user is a member with edit rights.",
    );
  }
}

function notFoundAdvice(subject: RequestSubject): string {
  const org = orgName(subject);
  if (subject.versionId !== undefined && subject.slug !== undefined) {
    return `No version ${JSON.stringify(subject.versionId)} of specification ${JSON.stringify(subject.slug)} in ${org}.`;
  }
  if (subject.slug !== undefined) {
    return (
      `No specification with slug ${JSON.stringify(subject.slug)} in ${org} ` +
      "(or the organization does not exist or the token cannot see it)."
    );
  }
  if (subject.orgId !== undefined) {
    return `The organization ${JSON.stringify(subject.orgId)} does not exist or the token cannot see it; check the organization id.`;
  }
  return "The resource does not exist; check the base URL.";
}

export class NotFoundError extends GitBookApiError {
  override name = "NotFoundError";
  constructor(init: ApiErrorInit) {
    super(init, notFoundAdvice(init.subject));
  }
}

export class ConflictError extends GitBookApiError {
  override name = "ConflictError";
  constructor(init: ApiErrorInit) {
    super(init, "The resource changed or already exists; fetch it again and retry.");
  }
}

export class RateLimitError extends GitBookApiError {
  override name = "RateLimitError";
  constructor(init: ApiErrorInit) {
    super(
      init,
      init.retryAfterMs === undefined
        ? "Too many requests; wait and run again."
        : `Too many requests; the service asks to retry in ${Math.ceil(init.retryAfterMs / 1000)} s ` +
            `(around ${new Date(Date.now() + init.retryAfterMs).toISOString()}).`,
    );
  }
}

export class ServerError extends GitBookApiError {
  override name = "ServerError";
  constructor(init: ApiErrorInit) {
    super(init, "The service failed; run again later, and report it to GitBook if it persists.");
  }
}

/** Builds the error class that fits the status. */
export function createApiError(init: ApiErrorInit): GitBookApiError {
  const { status } = init;
  if (status >= 300 && status < 400) return new UnexpectedRedirectError(init);
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500) return new ServerError(init);
  return new GitBookApiError(init, "");
}

export interface ConnectionErrorInit extends RequestErrorInit {
  host: string;
  /** The system or undici error code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`. */
  code: string | undefined;
  detail: string;
}

/** The request did not get a response because of the network. */
export class GitBookConnectionError extends GitBookError {
  override name = "GitBookConnectionError";
  readonly host: string;
  readonly code: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly request: RedactedRequest;
  readonly subject: RequestSubject;
  readonly attempts: number;

  constructor(init: ConnectionErrorInit) {
    super(
      `${init.request.method} ${init.request.path} failed: could not get a response from ${init.host} ` +
        `(${init.code ?? "network error"}: ${init.detail}). Check the network, the API URL ` +
        `and the HTTPS_PROXY / NO_PROXY settings.${attemptsNote(init.attempts)}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.host = init.host;
    this.code = init.code;
    this.method = init.request.method;
    this.path = init.request.path;
    this.request = init.request;
    this.subject = init.subject;
    this.attempts = init.attempts;
  }
}

export interface TimeoutErrorInit extends RequestErrorInit {
  timeoutMs: number;
}

/** An attempt got no complete response within the per-attempt timeout. */
export class GitBookTimeoutError extends GitBookError {
  override name = "GitBookTimeoutError";
  readonly timeoutMs: number;
  readonly method: string;
  readonly path: string;
  readonly request: RedactedRequest;
  readonly subject: RequestSubject;
  readonly attempts: number;

  constructor(init: TimeoutErrorInit) {
    super(
      `${init.request.method} ${init.request.path} failed: no complete response within ${init.timeoutMs} ms. ` +
        `The service is slow or unreachable; run again later or raise the request timeout.${attemptsNote(init.attempts)}`,
    );
    this.timeoutMs = init.timeoutMs;
    this.method = init.request.method;
    this.path = init.request.path;
    this.request = init.request;
    this.subject = init.subject;
    this.attempts = init.attempts;
  }
}

/**
 * The run's deadline (the `timeout` input, for the whole run) came while the call was in flight or
 * before it could be sent or retried.
 */
export class GitBookDeadlineError extends GitBookTimeoutError {
  override name = "GitBookDeadlineError";

  constructor(init: TimeoutErrorInit) {
    super(init);
    this.message =
      `${init.request.method} ${init.request.path} did not complete: the run's time limit (the 'timeout' input) ` +
      `ran out${init.attempts > 1 ? ` after ${init.attempts} attempts` : ""}. The service is slow or unreachable; run again later or raise 'timeout'.`;
  }
}

/**
 * A call's own deadline (`{ deadline }` on a read, earlier than the run's) came while it was in flight or
 * before it could be sent or retried. The run's deadline is not reached: the caller decides what to do
 * without the answer (the unchanged check uploads).
 */
export class GitBookCallDeadlineError extends GitBookTimeoutError {
  override name = "GitBookCallDeadlineError";
  /** How long the call had, from its first attempt to its deadline. */
  readonly budgetMs: number;

  constructor(init: TimeoutErrorInit & { budgetMs: number; operation: string }) {
    super(init);
    this.budgetMs = init.budgetMs;
    const what =
      init.budgetMs > 0
        ? `did not complete within its own time budget of ${init.budgetMs} ms${init.attempts > 1 ? ` (${init.attempts} attempts)` : ""}`
        : "was not sent: its own deadline had passed before it could start";
    this.message =
      `${init.request.method} ${init.request.path} (${init.operation}) ${what}; the run goes on without ` +
      "this answer. The service is slow for this call; run again later if it matters.";
  }
}

/**
 * The answer is larger than the cap for its kind ({@link src/adapters/http/limits.ts}): announced by `Content-Length`, or
 * seen while streaming. Nothing past the cap was read, and the call is not retried (the same answer would
 * come again).
 */
export class ResponseTooLargeError extends GitBookError {
  override name = "ResponseTooLargeError";
  readonly method: string;
  readonly path: string;
  readonly request: RedactedRequest;
  readonly subject: RequestSubject;
  readonly status: number;
  /** The size `Content-Length` announced, or the bytes read when the read stopped. */
  readonly sizeBytes: number;
  readonly announced: boolean;
  readonly capBytes: number;
  readonly attempts: number;

  constructor(init: {
    request: RedactedRequest;
    subject: RequestSubject;
    status: number;
    cap: { bytes: number; what: string };
    sizeBytes: number;
    announced: boolean;
    attempts: number;
  }) {
    const { cap } = init;
    const size = formatBytes;
    const seen = init.announced
      ? `announced ${init.sizeBytes} bytes (${size(init.sizeBytes)}) in its Content-Length`
      : `sent more than ${size(cap.bytes)} (the read stopped at ${init.sizeBytes} bytes)`;
    super(
      `${init.request.method} ${init.request.path} (${init.subject.operation}) ${seen}, over the ` +
        `${cap.bytes}-byte (${size(cap.bytes)}) cap for ${cap.what}: nothing past the cap was read, and the ` +
        "call is not retried. Check that the base URL (api-url) points at the GitBook API; if it does, " +
        "report the size to GitBook.",
    );
    this.method = init.request.method;
    this.path = init.request.path;
    this.request = init.request;
    this.subject = init.subject;
    this.status = init.status;
    this.sizeBytes = init.sizeBytes;
    this.announced = init.announced;
    this.capBytes = cap.bytes;
    this.attempts = init.attempts;
  }
}

/** The service answered with success, but the body is not what the published description promises. */
export class UnexpectedResponseError extends GitBookError {
  override name = "UnexpectedResponseError";
  readonly operation: string;
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly request: RedactedRequest;

  constructor(init: { request: RedactedRequest; subject: RequestSubject; status: number; problem: string }) {
    super(
      `${init.request.method} ${init.request.path} (${init.subject.operation}) returned an unexpected ` +
        `response (${init.status}): ${init.problem}. Check that the base URL points at the GitBook API ` +
        "and that no proxy rewrites the response.",
    );
    this.operation = init.subject.operation;
    this.status = init.status;
    this.method = init.request.method;
    this.path = init.request.path;
    this.request = init.request;
  }
}
