/**
 * Sends one API call: builds the URL from the base URL, sets the headers, enforces the per-attempt
 * timeout, the run's deadline and the call's own one, retries as {@link decideRetry} says, reads the
 * answer up to the cap for its kind ({@link RESPONSE_CAPS}), and turns every failure into a typed error
 * whose message holds no token. Redirects are never followed (undici's `request` does not follow them),
 * so the token only ever goes to the base URL's origin.
 *
 * The answer is returned as the service sent it: secrets are removed where text is shown (the log, the
 * summary, the outputs, the comment, the CLI's output), never from the data a run works with — a slug
 * or an id that happens to hold a piece of the token must come back as it is, or the run would ask
 * for something else.
 */
import { STATUS_CODES } from "node:http";
import { type Dispatcher, request } from "undici";
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
import { formatBytes, RESPONSE_CAPS, type ResponseCap } from "../../core/service/limits.ts";
import { type Parser, parseErrorBody, ResponseShapeError } from "../../core/service/parse.ts";
import { createRedactor, type Redact } from "../../core/text/redact.ts";
import {
  type AttemptOutcome,
  type AttemptVerdict,
  isRetryableStatus,
  type RetryPolicy,
  withRetries,
} from "./retry.ts";

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

type ResponseHeaders = Record<string, string | string[] | undefined>;

type AttemptResult =
  /** `text` is undefined for an error answer whose body was over its cap, and was not read. */
  | { kind: "response"; status: number; headers: ResponseHeaders; text: string | undefined }
  /** A success answer over the call's cap: `size` as announced, or the bytes read when the read stopped. */
  | { kind: "too-large"; status: number; size: number; announced: boolean }
  | { kind: "connection"; error: unknown }
  | { kind: "timeout" }
  /** Cut at the deadline (the run's or the call's own), or not sent because it had passed. */
  | { kind: "deadline" };

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

type CappedRead =
  | { kind: "body"; bytes: Uint8Array }
  | { kind: "too-large"; size: number; announced: boolean };

/**
 * Reads a body up to `cap` bytes: refused at once when `Content-Length` announces more, else streamed
 * and dropped (the connection closed) as soon as the bytes read pass the cap, so that no more than one
 * chunk past it is ever held.
 */
async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  headers: ResponseHeaders,
  cap: number,
): Promise<CappedRead> {
  const length = firstHeader(headers["content-length"])?.trim();
  if (length !== undefined && /^\d+$/.test(length) && Number(length) > cap) {
    body.destroy();
    return { kind: "too-large", size: Number(length), announced: true };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > cap) {
      body.destroy();
      return { kind: "too-large", size: total, announced: false };
    }
    chunks.push(chunk);
  }
  return { kind: "body", bytes: Buffer.concat(chunks, total) };
}

/** UTF-8, a byte order mark dropped, as undici's `body.text()` decodes. */
const utf8 = new TextDecoder("utf-8");

const REDACTED_AUTHORIZATION = "Bearer [REDACTED]";

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Finds the error that says what went wrong: undici and Node wrap it in `cause` or `errors`. */
function rootNetworkError(error: unknown): { code: string | undefined; message: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR" && !(current instanceof AggregateError)) {
      return { code, message: current.message };
    }
    const next: unknown =
      current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause;
    if (next === undefined) {
      return { code: typeof code === "string" ? code : undefined, message: current.message };
    }
    current = next;
  }
  return { code: undefined, message: current instanceof Error ? current.message : String(current) };
}

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
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
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
        if (result.kind === "response" || result.kind === "too-large") this.#reached = true;
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
        if (result.kind === "response" && result.status >= 200 && result.status < 300) {
          return {
            kind: "done",
            value: { status: result.status, value: this.#parseSuccess(call, redacted, result) },
          };
        }
        return {
          kind: "failed",
          outcome: this.#outcomeOf(result),
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
    body: string | undefined,
    limit: Limit | undefined,
  ): Promise<AttemptResult> {
    const left = limit === undefined ? Number.POSITIVE_INFINITY : limit.at - this.#options.now();
    if (left <= 0) return { kind: "deadline" };
    const cutByDeadline = left < this.#options.requestTimeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.min(this.#options.requestTimeoutMs, left),
    );
    try {
      const response = await request(url, {
        method: call.method,
        headers,
        body,
        dispatcher: this.#options.dispatcher,
        signal: controller.signal,
      });
      const status = response.statusCode;
      const success = status >= 200 && status < 300;
      // A success the call does not read is still read (and dropped) up to a cap, so that the
      // connection can serve the next call; an error answer is read up to its own cap.
      const cap = !success ? RESPONSE_CAPS.errorBody : call.parse === null ? RESPONSE_CAPS.unused : call.cap;
      const read = await readCapped(response.body, response.headers, cap.bytes);
      if (read.kind === "body") {
        return { kind: "response", status, headers: response.headers, text: utf8.decode(read.bytes) };
      }
      if (success && call.parse !== null) {
        return { kind: "too-large", status, size: read.size, announced: read.announced };
      }
      return { kind: "response", status, headers: response.headers, text: success ? "" : undefined };
    } catch (error) {
      if (!timedOut) return { kind: "connection", error };
      return cutByDeadline ? { kind: "deadline" } : { kind: "timeout" };
    } finally {
      clearTimeout(timer);
    }
  }

  #outcomeOf(result: Exclude<AttemptResult, { kind: "too-large" }>): AttemptOutcome {
    switch (result.kind) {
      case "response":
        return {
          kind: "status",
          status: result.status,
          retryAfter: firstHeader(result.headers["retry-after"]),
        };
      case "connection":
        return { kind: "connection", code: rootNetworkError(result.error).code };
      case "timeout":
      case "deadline":
        return { kind: "timeout" };
    }
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
    result: Extract<AttemptResult, { kind: "response" }>,
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
    const contentType = firstHeader(result.headers["content-type"]) ?? "";
    if (contentType !== "" && !/[/+]json\b/i.test(contentType)) {
      throw fail(`the content type is ${JSON.stringify(this.#redact(contentType))}, expected JSON`);
    }
    const text = result.text ?? "";
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
    result: Exclude<AttemptResult, { kind: "too-large" }>,
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
      const root = rootNetworkError(result.error);
      const detail = this.#redact(root.message);
      const cause = Object.assign(new Error(detail), root.code === undefined ? {} : { code: root.code });
      return new GitBookConnectionError({
        request,
        subject,
        attempts,
        host: this.#options.baseUrl.host,
        code: root.code,
        detail,
        cause,
      });
    }
    let parsed: { code?: number | string; message?: string } = {};
    const { text } = result;
    try {
      if (text !== undefined) parsed = parseErrorBody(JSON.parse(text));
    } catch {
      // Not JSON (a proxy's HTML page, an empty body): the status says enough.
    }
    const location = firstHeader(result.headers.location);
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
