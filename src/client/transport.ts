/**
 * Sends one API call: builds the URL from the base URL, sets the headers, enforces the per-attempt
 * timeout, retries as {@link decideRetry} says, and turns every failure into a typed error that holds no
 * token. Redirects are never followed (undici's `request` does not follow them), so the token only
 * ever goes to the base URL's origin.
 */
import { STATUS_CODES } from "node:http";
import { type Dispatcher, request } from "undici";
import { createRedactor, type Redact } from "../text/redact.ts";
import {
  createApiError,
  GitBookConnectionError,
  GitBookDeadlineError,
  GitBookTimeoutError,
  type RedactedRequest,
  type RequestSubject,
  UnexpectedResponseError,
} from "./errors.ts";
import { type Parser, parseErrorBody, ResponseShapeError } from "./parse.ts";
import { type AttemptOutcome, decideRetry, isRetryableStatus, type RetryPolicy } from "./retry.ts";

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
}

export interface Reply<T> {
  status: number;
  value: T;
}

type AttemptResult =
  | { kind: "response"; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: "connection"; error: unknown }
  | { kind: "timeout" }
  /** Cut at the run's deadline, or not sent because it had passed. */
  | { kind: "deadline" };

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

    for (let attempt = 1; ; attempt++) {
      const result = await this.#attempt(url, call.method, sendHeaders, body);
      if (result.kind === "deadline") throw this.#deadlineError(call.subject, redacted, attempt);
      if (result.kind === "response" && result.status >= 200 && result.status < 300) {
        return { status: result.status, value: this.#parseSuccess(call, redacted, result) };
      }
      const outcome = this.#outcomeOf(result);
      const decision = decideRetry({
        method: call.method,
        outcome,
        attempt,
        policy: this.#options.policy,
        random: this.#options.random,
        now: this.#options.now(),
      });
      if (!decision.retry) {
        throw this.#errorOf(result, call.subject, redacted, attempt, decision.retryAfterMs);
      }
      const { deadline } = this.#options;
      if (deadline !== undefined && this.#options.now() + decision.delayMs >= deadline) {
        // No retry can complete in the run's time: the last answer is the verdict.
        throw this.#errorOf(result, call.subject, redacted, attempt, undefined);
      }
      this.#options.onRetry?.({
        method: call.method,
        path: redacted.path,
        attempt,
        delayMs: decision.delayMs,
        reason: decision.reason,
      });
      await this.#options.sleep(decision.delayMs);
    }
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
    method: HttpMethod,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<AttemptResult> {
    const left =
      this.#options.deadline === undefined
        ? Number.POSITIVE_INFINITY
        : this.#options.deadline - this.#options.now();
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
        method,
        headers,
        body,
        dispatcher: this.#options.dispatcher,
        signal: controller.signal,
      });
      const text = await response.body.text();
      return { kind: "response", status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (!timedOut) return { kind: "connection", error };
      return cutByDeadline ? { kind: "deadline" } : { kind: "timeout" };
    } finally {
      clearTimeout(timer);
    }
  }

  #outcomeOf(result: AttemptResult): AttemptOutcome {
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
      new UnexpectedResponseError({
        request: redacted,
        subject: call.subject,
        status: result.status,
        problem,
      });
    const contentType = firstHeader(result.headers["content-type"]) ?? "";
    if (contentType !== "" && !/[/+]json\b/i.test(contentType)) {
      throw fail(`the content type is ${JSON.stringify(this.#redact(contentType))}, expected JSON`);
    }
    let json: unknown;
    try {
      json = this.#parseRedacted(result.text);
    } catch {
      throw fail(result.text === "" ? "the body is empty, expected JSON" : "the body is not valid JSON");
    }
    try {
      return call.parse(json);
    } catch (error) {
      if (error instanceof ResponseShapeError) throw fail(error.message);
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
   * Parses a response body, removing the token from every string and key as it is decoded, before
   * anything reads it: JSON escapes (`\/`, `\u0067`) cannot hide the token, and no field, message or
   * error detail built from the body can carry it. (Replacing it in the raw text instead can split an
   * escape — `\/` before a piece that starts with `/` — and turn a valid answer into invalid JSON.)
   */
  #parseRedacted(text: string): unknown {
    // Without escapes every decoded string is a piece of the text: a text free of the token needs no reviver.
    if (!text.includes("\\") && this.#redact(text) === text) return JSON.parse(text);
    return JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === "string") return this.#redact(value);
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      const keys = Object.keys(value);
      if (keys.every((key) => this.#redact(key) === key)) return value;
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.#redact(key), item]));
    });
  }

  #errorOf(
    result: AttemptResult,
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
    try {
      parsed = parseErrorBody(this.#parseRedacted(result.text));
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
    });
  }
}
