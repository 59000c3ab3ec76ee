import { type Dispatcher, request } from "undici";
import { DEFAULT_USER_AGENT } from "../client/user-agent.ts";
import { Redactor } from "../text/redact.ts";

/** The HTTP methods the notes code uses. */
export type GitLabMethod = "GET" | "POST" | "PUT";

export interface GitLabClientOptions {
  /** `CI_API_V4_URL` as checked by the context, for example "https://gitlab.com/api/v4". */
  apiUrl: string;
  /** Sent as `PRIVATE-TOKEN`, to `apiUrl`'s origin only; never written into a message. */
  token: string;
  /** Epoch milliseconds after which no GitLab request is sent or waited for. */
  deadline: number;
  /** Longest wait for one answer; default 30 s. */
  requestTimeoutMs?: number;
  /** First pause before a retry; it grows with each attempt. Default 1 s. */
  retryDelayMs?: number;
  /** Retries of a transient failure (a dropped connection, 429, 5xx); default 2. */
  retries?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The undici dispatcher (for proxies or tests); undici's global one by default. */
  dispatcher?: Dispatcher;
}

export interface GitLabRequest {
  method: GitLabMethod;
  /** Below the API URL, starting with "/", for example "/user". Built by the caller from checked parts. */
  path: string;
  query?: Record<string, string | number>;
  /** Sent as JSON. */
  body?: unknown;
}

export interface GitLabResponse {
  status: number;
  /** Response headers, lowercase names; a repeated header keeps its first value. */
  headers: Record<string, string>;
  /** The parsed JSON answer; undefined for an empty one. */
  data: unknown;
}

/** A GitLab request failed; the message names the call and GitLab's own reason, never the token. */
export class GitLabApiError extends Error {
  override readonly name: string = "GitLabApiError";
  /** The HTTP status, when GitLab answered. */
  readonly status: number | undefined;
  /**
   * A POST that may have been applied although no success came back (no answer, or a 5xx): the caller
   * looks again before sending it a second time.
   */
  readonly mayHaveApplied: boolean;

  constructor(message: string, status: number | undefined, mayHaveApplied: boolean, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.mayHaveApplied = mayHaveApplied;
  }
}

/** Thrown instead of a request that would start, or go on, past the run's deadline. */
export class GitLabDeadlineError extends GitLabApiError {
  override readonly name = "GitLabDeadlineError";
}

export interface GitLabClient {
  /** The API URL requests go to. */
  readonly apiUrl: string;
  /** Sends one request (with retries, see {@link createGitLabClient}); a non-2xx answer throws. */
  send(call: GitLabRequest): Promise<GitLabResponse>;
  /** Removes every piece of the token from `text`, for messages built from outside data. */
  redact(text: string): string;
}

const MAX_MESSAGE_LENGTH = 300;
/** The longest `Retry-After` honoured; a longer one is treated as the normal back-off. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * A small REST client for GitLab's API v4. Every request goes to `apiUrl` (the token never leaves that
 * origin: paths are joined below it, and redirects are not followed) and is bounded: aborted after
 * `requestTimeoutMs` or at the deadline, whichever comes first. GET and PUT are retried on a transient
 * failure (a dropped connection, 408, 429, 5xx) while time is left; a POST is retried only on 429, which
 * GitLab answers before doing anything, and otherwise fails with `mayHaveApplied` for the caller to
 * look before sending it again.
 */
export function createGitLabClient(options: GitLabClientOptions): GitLabClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const origin = new URL(apiUrl).origin;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const retries = options.retries ?? 2;
  const redactor = new Redactor([options.token]);
  const redact = (text: string) => redactor.redact(text).split(options.token).join("[REDACTED]");

  const urlOf = (call: GitLabRequest): URL => {
    if (!call.path.startsWith("/") || call.path.includes("..") || call.path.includes("//")) {
      throw new GitLabApiError(
        `Refused to call GitLab at a malformed path ${JSON.stringify(call.path)}.`,
        undefined,
        false,
      );
    }
    const url = new URL(`${apiUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, String(value));
    if (url.origin !== origin) {
      throw new GitLabApiError(`Refused to send the token outside ${origin}.`, undefined, false);
    }
    return url;
  };

  const once = async (call: GitLabRequest, url: URL, timeoutMs: number, what: string) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = {
      accept: "application/json",
      "private-token": options.token,
      "user-agent": DEFAULT_USER_AGENT,
    };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    try {
      const answer = await request(url, {
        method: call.method,
        headers,
        signal,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
      const text = await answer.body.text();
      return { status: answer.statusCode, headers: flatHeaders(answer.headers), text };
    } catch (error) {
      if (signal.aborted) {
        throw new GitLabDeadlineError(
          `${what} got no answer within ${Math.max(1, Math.round(timeoutMs / 1000))} s.`,
          undefined,
          call.method === "POST",
        );
      }
      throw new GitLabApiError(
        `${what} failed: ${redact(networkReason(error))}`,
        undefined,
        call.method === "POST",
      );
    }
  };

  return {
    apiUrl,
    redact,
    async send(call) {
      const url = urlOf(call);
      const what = `GitLab ${call.method} ${url.pathname.slice(new URL(apiUrl).pathname.length) || "/"}`;
      for (let attempt = 0; ; attempt++) {
        const left = options.deadline - now();
        if (left <= 0) {
          throw new GitLabDeadlineError(`${what} was not sent: the run's time is up.`, undefined, false);
        }
        let failure: GitLabApiError;
        let retryAfterMs: number | undefined;
        try {
          const answer = await once(call, url, Math.min(requestTimeoutMs, left), what);
          if (answer.status >= 200 && answer.status < 300) {
            return { status: answer.status, headers: answer.headers, data: parseJson(answer.text) };
          }
          failure = new GitLabApiError(
            `${what} answered HTTP ${answer.status}${reasonOf(answer.text, redact)}`,
            answer.status,
            call.method === "POST" && answer.status >= 500,
          );
          retryAfterMs = parseRetryAfter(answer.headers["retry-after"]);
        } catch (error) {
          if (error instanceof GitLabDeadlineError || !(error instanceof GitLabApiError)) throw error;
          failure = error;
        }
        const delay = retryAfterMs ?? retryDelayMs * (attempt + 1);
        const retryable = call.method === "POST" ? failure.status === 429 : isTransient(failure.status);
        if (attempt >= retries || !retryable || options.deadline - now() < delay) throw failure;
        await sleep(delay);
      }
    },
  };
}

/** No answer at all (status undefined), a timeout, a rate limit or a server error. */
function isTransient(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) flat[name.toLowerCase()] = first;
  }
  return flat;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GitLab's reason from an error answer (`message` or `error`), cut and redacted; "" when none. */
function reasonOf(text: string, redact: (text: string) => string): string {
  const data = parseJson(text);
  let reason: unknown;
  if (typeof data === "object" && data !== null) {
    reason = (data as { message?: unknown }).message ?? (data as { error?: unknown }).error;
  }
  if (reason !== undefined && typeof reason !== "string") reason = JSON.stringify(reason);
  if (typeof reason !== "string" || reason.trim() === "") return "";
  const oneLine = redact(reason).replace(/\s+/g, " ").trim();
  const cut = oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH)}…` : oneLine;
  return `: ${cut}`;
}

/** undici reports a refused or dropped connection as "fetch failed" with the reason in `cause`. */
function networkReason(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 3; depth++) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.join(": ") || String(error);
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  const ms = Number(value.trim()) * 1000;
  return ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}
