/**
 * The one HTTP client of the review hosts (GitHub's, GitLab's and Azure DevOps' comment APIs): JSON in
 * and out, every answer read under a size cap chosen per kind of call, every request under the run's
 * deadline, and the retry loop of the GitBook client (`withRetries`, deciding by `decideRetry`) — so a
 * POST that may have been applied is never sent twice: it fails with `mayHaveApplied` for the caller to
 * look before writing again.
 */

import type { Dispatcher } from "undici";
import type { Logger } from "../../core/logger.ts";
import { ReviewHostError } from "../../core/review-thread/errors.ts";
import { Redactor } from "../../core/text/redact.ts";
import { truncate } from "../../core/text/truncate.ts";
import { type Exchange, exchange, isSuccess, outcomeOf } from "../http/exchange.ts";
import { formatBytes, KiB, MiB } from "../http/limits.ts";
import { type AttemptVerdict, type RetryPolicy, requestNeverSent, withRetries } from "../http/retry.ts";
import { DEFAULT_USER_AGENT } from "../http/user-agent.ts";

export type HostMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The largest answer one kind of call may get; a larger one is refused without being read whole. */
export interface AnswerCap {
  bytes: number;
  /** What such an answer is, for the error: "a page of comments", "the token's identity". */
  kind: string;
}

/**
 * The caps every review host's comment calls share: the token's identity (a few hundred bytes from any
 * host) and a deletion's unused answer get 64 KiB; a page of 100 comments 32 MiB, ample for real pages
 * and far below what would hurt the runner. Each host adds the cap of one comment (from its longest
 * comment) and of a pull request.
 */
export function reviewHostCaps(kinds: { identity: string; page: string }) {
  return {
    identity: { bytes: 64 * KiB, kind: kinds.identity },
    page: { bytes: 32 * MiB, kind: kinds.page },
    deletion: { bytes: 64 * KiB, kind: "a deletion" },
  } as const satisfies Record<string, AnswerCap>;
}

export interface HostRequest {
  method: HostMethod;
  /** Below the client's base URL: "" for the base itself, else starting with "/". Built from checked parts. */
  path: string;
  query?: Record<string, string | number>;
  /** Sent as JSON. */
  body?: unknown;
  cap: AnswerCap;
  /**
   * Sending it twice does no more than sending it once: retried like a GET. True by default for every
   * method but POST; a read-only GraphQL query sent as POST says so here.
   */
  idempotent?: boolean;
}

export interface HostResponse {
  status: number;
  /** Lowercase names; a repeated header keeps its first value. */
  headers: Record<string, string>;
  /** The parsed JSON answer; undefined for an empty or unparsable one. */
  data: unknown;
}

/** Thrown instead of a request that would start, or go on, past the run's deadline. */
export class ReviewHostDeadlineError extends ReviewHostError {
  override readonly name = "ReviewHostDeadlineError";
}

/**
 * A successful answer larger than its {@link AnswerCap}: refused, never buffered past the cap. Its
 * status said success, so a POST answered so was applied (`mayHaveApplied`).
 */
export class AnswerTooLargeError extends ReviewHostError {
  override readonly name = "AnswerTooLargeError";
  /** The size the answer declared (`content-length`); undefined when it declared none. */
  readonly size: number | undefined;
  readonly cap: AnswerCap;

  constructor(what: string, size: number | undefined, cap: AnswerCap, applied: boolean) {
    const said = size === undefined ? `more than ${formatBytes(cap.bytes)}` : formatBytes(size);
    super(
      `${what} answered ${said}, over the ${formatBytes(cap.bytes)} allowed for ${cap.kind}; the answer was not read.`,
      undefined,
      applied,
    );
    this.size = size;
    this.cap = cap;
  }
}

/** What a host's client lets its caller tune: time, retries, clock and dispatcher. */
export type HostClientTuning = Omit<
  HostClientOptions,
  "host" | "baseUrl" | "headers" | "secrets" | "signInStatuses"
>;

/** What a run gives a host's pull request comment beside its host's own target and token. */
export interface ReviewCommentOptions {
  /** The `comment-key`: identifies this instance's comment. */
  commentKey: string;
  logger: Logger;
  /** Epoch milliseconds after which no request to the host is sent or waited for. */
  deadline: number;
  /** Longest wait for one answer; default 30 s. */
  requestTimeoutMs?: number;
  /** Base of the back-off before a retry; default 1 s. */
  retryDelayMs?: number;
  /** The undici dispatcher (for a proxy); undici's global one by default. */
  dispatcher?: Dispatcher;
}

/** The tuning of `options` that is set, for a host's client. */
export function tuningOf(
  options: Pick<HostClientTuning, "requestTimeoutMs" | "retryDelayMs" | "dispatcher">,
): Pick<HostClientTuning, "requestTimeoutMs" | "retryDelayMs" | "dispatcher"> {
  return {
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  };
}

export interface HostClientOptions {
  /** "GitHub" or "GitLab": starts every message. */
  host: string;
  /** Requests go below this URL; the token never leaves its origin (redirects are not followed). */
  baseUrl: string;
  /** Sent with every request: the credential, the media type. */
  headers: Record<string, string>;
  /**
   * Success statuses that mean the token was not taken: Azure DevOps answers 203 with its HTML sign-in
   * page. Such an answer fails at once, as an authentication error with that status, never applied.
   */
  signInStatuses?: readonly number[];
  /** Removed, whole or in pieces, from every message built from an answer. */
  secrets: readonly string[];
  /** Epoch milliseconds after which no request is sent or waited for. */
  deadline: number;
  /** Longest wait for one answer; default 30 s. */
  requestTimeoutMs?: number;
  /** Base of the back-off before a retry; default 1 s. */
  retryDelayMs?: number;
  /** Retries of a transient failure; default 2. */
  retries?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The jitter's random source; `Math.random` by default. */
  random?: () => number;
  /** The undici dispatcher (for a proxy or a test); undici's global one by default. */
  dispatcher?: Dispatcher;
}

export interface HostClient {
  readonly baseUrl: string;
  /** Sends one call (retried as {@link decideRetry} says); a non-2xx answer throws {@link ReviewHostError}. */
  send(call: HostRequest): Promise<HostResponse>;
  /** Removes every piece of the secrets from `text`, for messages built from outside data. */
  redact(text: string): string;
}

/** What an error answer is read for (its reason); the rest of it is never read. */
const ERROR_ANSWER_BYTES = 64 * 1024;
const MAX_REASON_LENGTH = 300;

export function createHostClient(options: HostClientOptions): HostClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const origin = new URL(baseUrl).origin;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const policy: RetryPolicy = {
    maxRetries: options.retries ?? 2,
    baseDelayMs: options.retryDelayMs ?? 1_000,
    maxDelayMs: 10_000,
    maxRetryAfterMs: 30_000,
  };
  const redactor = new Redactor(options.secrets);
  const redact = (text: string) =>
    options.secrets.reduce(
      (out, secret) => (secret ? out.split(secret).join("[REDACTED]") : out),
      redactor.redact(text),
    );

  const urlOf = (call: HostRequest): URL => {
    const path = call.path;
    if ((path !== "" && !path.startsWith("/")) || path.includes("..") || path.includes("//")) {
      throw new ReviewHostError(
        `Refused to call ${options.host} at a malformed path ${JSON.stringify(path)}.`,
        undefined,
        false,
      );
    }
    const url = new URL(`${baseUrl}${path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, String(value));
    if (url.origin !== origin) {
      throw new ReviewHostError(`Refused to send the token outside ${origin}.`, undefined, false);
    }
    return url;
  };

  const attempt = (call: HostRequest, url: URL): Promise<Exchange> => {
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": DEFAULT_USER_AGENT,
      ...options.headers,
    };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    return exchange({
      url,
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      dispatcher: options.dispatcher,
      timeoutMs: requestTimeoutMs,
      until: options.deadline,
      now,
      successCap: call.cap.bytes,
      errorCap: ERROR_ANSWER_BYTES,
    });
  };

  return {
    baseUrl,
    redact,
    async send(call) {
      const url = urlOf(call);
      const what = `${options.host} ${call.method} ${url.pathname}`;
      const idempotent = call.idempotent ?? call.method !== "POST";
      return withRetries(
        // Only whether repeating it is harmless matters here: an edit or a query repeats like a GET.
        { method: idempotent ? "GET" : "POST", policy, random, now, sleep, until: options.deadline },
        async (): Promise<AttemptVerdict<HostResponse>> => {
          const result = await attempt(call, url);
          if (result.kind === "deadline") {
            const error = new ReviewHostDeadlineError(
              `${what} was not sent: the run's time is up.`,
              undefined,
              false,
            );
            return { kind: "stop", error };
          }
          if (result.kind === "answer" && options.signInStatuses?.includes(result.status)) {
            const error = new ReviewHostError(
              `${what} answered HTTP ${result.status} with a sign-in page instead of an answer: the token was not accepted.`,
              result.status,
              false,
            );
            return { kind: "stop", error };
          }
          if (isSuccess(result)) {
            const value = { status: result.status, headers: result.headers, data: parseJson(result.bytes) };
            return { kind: "done", value };
          }
          if (result.kind === "too-large")
            return {
              kind: "stop",
              error: new AnswerTooLargeError(
                what,
                result.announced ? result.size : undefined,
                call.cap,
                !idempotent,
              ),
            };
          const failure = failureOf(result, what, idempotent, redact);
          if (result.kind === "timeout" && result.cut) return { kind: "stop", error: failure };
          return { kind: "failed", outcome: outcomeOf(result), error: () => failure };
        },
      );
    },
  };
}

/** The failed attempt as an error; only a POST (not idempotent) may be marked `mayHaveApplied`. */
function failureOf(
  result: Exclude<Exchange, { kind: "too-large" | "deadline" }>,
  what: string,
  idempotent: boolean,
  redact: (text: string) => string,
): ReviewHostError {
  switch (result.kind) {
    case "answer":
      return new ReviewHostError(
        `${what} answered HTTP ${result.status}${reasonOf(result.bytes, redact)}`,
        result.status,
        !idempotent && result.status >= 500,
      );
    case "timeout":
      return new ReviewHostDeadlineError(
        `${what} got no answer within ${Math.max(1, Math.round(result.ms / 1000))} s.`,
        undefined,
        !idempotent,
      );
    case "connection":
      return new ReviewHostError(
        `${what} failed: ${redact(result.reason)}`,
        undefined,
        !idempotent && !requestNeverSent(result.code),
      );
  }
}

/**
 * The next page from `x-next-page` (GitLab's header, empty on the last page), else from the `Link`
 * header's rel="next" (GitHub's, and GitLab's too). Only the page number is taken, never the address, so
 * a request never leaves the base URL; a page that does not move forward ends the listing.
 */
export function nextPage(headers: Record<string, string>, current: number): number | undefined {
  const header = headers["x-next-page"]?.trim();
  let next: number | undefined;
  if (header !== undefined && header !== "") {
    next = /^\d{1,9}$/.test(header) ? Number(header) : undefined;
  } else if (header === undefined) {
    const link = headers.link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
    const target = link ? /<([^>]*)>/.exec(link)?.[1] : undefined;
    if (target) {
      try {
        const page = new URL(target).searchParams.get("page");
        next = page !== null && /^\d{1,9}$/.test(page) ? Number(page) : undefined;
      } catch {
        next = undefined;
      }
    }
  }
  return next !== undefined && next > current ? next : undefined;
}

function parseJson(bytes: Buffer): unknown {
  const text = bytes.toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The host's reason from an error answer (`message`, `error`, or Bitbucket's `error.message`), cut and
 * redacted; "" when none.
 */
function reasonOf(bytes: Buffer, redact: (text: string) => string): string {
  const data = parseJson(bytes);
  let reason: unknown;
  if (typeof data === "object" && data !== null) {
    reason = (data as { message?: unknown }).message ?? (data as { error?: unknown }).error;
    const nested =
      typeof reason === "object" && reason !== null ? (reason as { message?: unknown }).message : undefined;
    if (typeof nested === "string") reason = nested;
  }
  if (reason !== undefined && typeof reason !== "string") reason = JSON.stringify(reason);
  if (typeof reason !== "string" || reason.trim() === "") return "";
  const oneLine = redact(reason).replace(/\s+/g, " ").trim();
  const cut = truncate(oneLine, MAX_REASON_LENGTH + 1);
  return `: ${cut}`;
}

export { ReviewHostError };
