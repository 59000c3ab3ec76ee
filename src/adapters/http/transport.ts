/**
 * Sends one API call: per-attempt timeout, the run's and the call's deadlines, retries as
 * {@link decideRetry} says, the answer read under its cap ({@link RESPONSE_CAPS}), typed errors without
 * the token; redirects never followed, so the token goes only to the base URL's origin. The answer comes
 * back as sent: secrets are removed where text is shown, never from data (docs/security.md).
 */
import { createRequire } from "node:module";
import type { Dispatcher } from "undici";
import {
  createApiError,
  GitBookCallDeadlineError,
  GitBookConnectionError,
  GitBookDeadlineError,
  GitBookTimeoutError,
  type RedactedRequest,
  type RequestSubject,
  ResponseTooLargeError,
  UnexpectedResponseError,
} from "../../core/service/errors.ts";
import { type Parser, parseErrorBody, ResponseShapeError } from "../../core/service/parse.ts";
import { createRedactor, type Redact } from "../../core/text/redact.ts";
import { type Exchange, exchange, isSuccess, outcomeOf } from "./exchange.ts";
import { formatBytes, RESPONSE_CAPS, type ResponseCap } from "./limits.ts";
import { type AttemptVerdict, isRetryableStatus, type RetryPolicy, withRetries } from "./retry.ts";

// Required, not imported: an `import` of node:http reads every export for the ES module's facade, and
// its `WebSocket` getter then loads Node's own copy of undici, 45 ms of every start (docs/design/build-choice.md).
const { STATUS_CODES } = createRequire(import.meta.url)("node:http") as typeof import("node:http");

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed, 1 for the first. */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface TransportOptions {
  token: string;
  baseUrl: URL;
  userAgent: string;
  requestTimeoutMs: number;
  /** Epoch milliseconds by which every call ends; undefined: none. */
  deadline: number | undefined;
  policy: RetryPolicy;
  dispatcher: Dispatcher;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
}

export interface Call<T> {
  method: HttpMethod;
  /** Path under `/v1`, with every parameter already URL-encoded, e.g. `/orgs/acme/openapi`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  subject: RequestSubject;
  /** Parses a success body; null when the operation answers without one. */
  parse: Parser<T> | null;
  /** The most bytes of a success body that are read ({@link RESPONSE_CAPS}). */
  cap: ResponseCap;
  /**
   * Epoch milliseconds (on `now`'s clock) by which this call ends, every attempt and retry included,
   * when that is earlier than the run's deadline ({@link GitBookCallDeadlineError}).
   */
  deadline?: number | undefined;
}

export interface Reply<T> {
  status: number;
  value: T;
}

/** The deadline a call ends at: the run's, or its own when that comes first. */
interface Limit {
  at: number;
  own: boolean;
}

function limitOf(runDeadline: number | undefined, callDeadline: number | undefined): Limit | undefined {
  if (callDeadline !== undefined && (runDeadline === undefined || callDeadline < runDeadline)) {
    return { at: callDeadline, own: true };
  }
  return runDeadline === undefined ? undefined : { at: runDeadline, own: false };
}

/** UTF-8, a byte order mark dropped, as undici's `body.text()` decodes. */
const utf8 = new TextDecoder("utf-8");

const REDACTED_AUTHORIZATION = "Bearer [REDACTED]";

export class Transport {
  readonly #options: TransportOptions;
  readonly #authorization: string;
  /** Whether the service has answered any request yet: until then network problems fail fast. */
  #reached = false;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#authorization = `Bearer ${options.token}`;
  }

  async send<T>(call: Call<T>): Promise<Reply<T>> {
    const url = this.#buildUrl(call);
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.#options.userAgent,
    };
    // As bytes: a body waits through its request (and its retries) outside the JS heap, where a spec's
    // text would outlive the young generation (docs/design/memory.md).
    const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
    if (body !== undefined) headers["content-type"] = "application/json";
    const redacted: RedactedRequest = {
      method: call.method,
      url: url.href,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, authorization: REDACTED_AUTHORIZATION },
    };
    const sendHeaders = { ...headers, authorization: this.#authorization };
    const started = this.#options.now();
    const limit = limitOf(this.#options.deadline, call.deadline);
    const deadlineError = (attempts: number) =>
      limit?.own
        ? new GitBookCallDeadlineError({
            request: redacted,
            subject: call.subject,
            attempts,
            timeoutMs: this.#options.requestTimeoutMs,
            budgetMs: Math.max(0, Math.round(limit.at - started)),
            operation: call.subject.operation,
          })
        : this.#deadlineError(call.subject, redacted, attempts);

    const options = this.#options;
    return withRetries(
      {
        method: call.method,
        policy: options.policy,
        random: options.random,
        now: options.now,
        sleep: options.sleep,
        until: limit?.at,
        reached: () => this.#reached,
        onRetry: (attempt, wait) =>
          options.onRetry?.({ method: call.method, path: redacted.path, attempt, ...wait }),
      },
      async (attempt): Promise<AttemptVerdict<Reply<T>>> => {
        const result = await this.#attempt(url, call, sendHeaders, body, limit);
        if (result.kind === "answer" || result.kind === "too-large") this.#reached = true;
        if (result.kind === "deadline") return { kind: "stop", error: this.#safe(deadlineError(attempt)) };
        if (result.kind === "too-large") {
          const error = new ResponseTooLargeError({
            request: redacted,
            subject: call.subject,
            status: result.status,
            cap: call.cap,
            sizeBytes: result.size,
            announced: result.announced,
            attempts: attempt,
          });
          return { kind: "stop", error: this.#safe(error) };
        }
        if (isSuccess(result)) {
          return {
            kind: "done",
            value: { status: result.status, value: this.#parseSuccess(call, redacted, result) },
          };
        }
        return {
          kind: "failed",
          outcome: outcomeOf(result),
          error: (retryAfterMs) =>
            this.#safe(this.#errorOf(result, call.subject, redacted, attempt, retryAfterMs)),
        };
      },
    );
  }

  #buildUrl(call: Call<unknown>): URL {
    const url = new URL(this.#options.baseUrl.href);
    url.pathname = `${url.pathname.replace(/\/$/, "")}/v1${call.path}`;
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    url.search = search.toString();
    return url;
  }

  async #attempt(
    url: URL,
    call: Call<unknown>,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    limit: Limit | undefined,
  ): Promise<Exchange> {
    // A success the call does not read is still read (and dropped) up to a cap, so that the
    // connection can serve the next call; an error answer is read up to its own cap.
    const result = await exchange({
      url,
      method: call.method,
      headers,
      body,
      dispatcher: this.#options.dispatcher,
      timeoutMs: this.#options.requestTimeoutMs,
      until: limit?.at,
      now: this.#options.now,
      successCap: call.parse === null ? RESPONSE_CAPS.unused.bytes : call.cap.bytes,
      errorCap: RESPONSE_CAPS.errorBody.bytes,
    });
    if (result.kind === "timeout" && result.cut) return { kind: "deadline" };
    if (result.kind === "too-large" && call.parse === null) {
      return { kind: "answer", status: result.status, headers: {}, bytes: Buffer.alloc(0), complete: true };
    }
    return result;
  }

  #deadlineError(subject: RequestSubject, request: RedactedRequest, attempts: number): GitBookDeadlineError {
    return new GitBookDeadlineError({
      request,
      subject,
      attempts,
      timeoutMs: this.#options.requestTimeoutMs,
    });
  }

  #parseSuccess<T>(
    call: Call<T>,
    redacted: RedactedRequest,
    result: Extract<Exchange, { kind: "answer" }>,
  ): T {
    if (call.parse === null) return undefined as T;
    const fail = (problem: string) =>
      this.#safe(
        new UnexpectedResponseError({
          request: redacted,
          subject: call.subject,
          status: result.status,
          problem,
        }),
      );
    const contentType = result.headers["content-type"] ?? "";
    if (contentType !== "" && !/[/+]json\b/i.test(contentType)) {
      throw fail(`the content type is ${JSON.stringify(this.#redact(contentType))}, expected JSON`);
    }
    const text = utf8.decode(result.bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail(text === "" ? "the body is empty, expected JSON" : "the body is not valid JSON");
    }
    try {
      return call.parse(json);
    } catch (error) {
      // The problem quotes the service's values: taken out of the message where it is built.
      if (error instanceof ResponseShapeError) throw fail(this.#redact(error.message));
      throw error;
    }
  }

  #redactor: Redact | undefined;

  /** The text without the token, whole or in pieces of 8+ characters (see redact.ts). */
  #redact(text: string): string {
    this.#redactor ??= createRedactor([this.#options.token]);
    return this.#redactor(text);
  }

  /**
   * The error with the token taken out of its message (whole or in pieces, see redact.ts): a message is
   * text to show, built from the service's words and our own path, whose slug may hold a piece of the
   * token by chance. Its fields keep what was sent and answered.
   */
  #safe<E extends Error>(error: E): E {
    error.message = this.#redact(error.message);
    return error;
  }

  #errorOf(
    result: Exclude<Exchange, { kind: "too-large" }>,
    subject: RequestSubject,
    request: RedactedRequest,
    attempts: number,
    retryAfterMs: number | undefined,
  ): Error {
    if (result.kind === "deadline") return this.#deadlineError(subject, request, attempts);
    if (result.kind === "timeout") {
      return new GitBookTimeoutError({
        request,
        subject,
        attempts,
        timeoutMs: this.#options.requestTimeoutMs,
      });
    }
    if (result.kind === "connection") {
      const detail = this.#redact(result.reason);
      const cause = Object.assign(new Error(detail), result.code === undefined ? {} : { code: result.code });
      return new GitBookConnectionError({
        request,
        subject,
        attempts,
        host: this.#options.baseUrl.host,
        code: result.code,
        detail,
        cause,
      });
    }
    let parsed: { code?: number | string; message?: string } = {};
    const text = result.complete ? utf8.decode(result.bytes) : undefined;
    try {
      if (text !== undefined) parsed = parseErrorBody(JSON.parse(text));
    } catch {
      // Not JSON (a proxy's HTML page, an empty body): the status says enough.
    }
    const location = result.headers.location;
    const redirectOrigin =
      location !== undefined && URL.canParse(location, request.url)
        ? this.#redact(new URL(location, request.url).origin)
        : undefined;
    return createApiError({
      request,
      subject,
      attempts,
      status: result.status,
      statusText: STATUS_CODES[result.status],
      code: parsed.code,
      serviceMessage: parsed.message === undefined ? undefined : this.#redact(parsed.message),
      retryable: isRetryableStatus(result.status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(redirectOrigin === undefined ? {} : { redirectOrigin }),
      ...(text === undefined
        ? {
            note: `(Its body was over the ${formatBytes(RESPONSE_CAPS.errorBody.bytes)} cap for ${RESPONSE_CAPS.errorBody.what} and was not read.)`,
          }
        : {}),
    });
  }
}
