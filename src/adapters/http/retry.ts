/**
 * The one place that decides whether a failed attempt is tried again, and after how long. Pure: the
 * clock and the random source are passed in.
 */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retries. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the client gives up and reports it. */
  maxRetryAfterMs: number;
}

/**
 * Retries a run's requests get: a transient failure is retried as long as the run's deadline allows
 * (the deadline, not this count, usually ends them).
 */
export const RETRIES_WITHIN_DEADLINE = 20;

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** How an attempt ended, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: "status"; status: number; retryAfter?: string | undefined }
  /** `code` is the system or undici error code (ECONNREFUSED, UND_ERR_SOCKET, ...). */
  | { kind: "connection"; code: string | undefined }
  | { kind: "timeout" };

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string; retryAfterMs?: number };

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** Codes meaning the connection failed before any byte of the request could reach the service. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Codes that no retry within seconds can fix. */
const PERMANENT_CODES = new Set([
  "ENOTFOUND",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UND_ERR_INVALID_ARG",
  "UND_ERR_DESTROYED",
  "UND_ERR_CLOSED",
]);

/**
 * Retries of a request that met a network problem before the service ever answered this run (connection
 * refused, a name that does not resolve yet, a TLS failure): a wrong URL or a closed network fails the
 * run within seconds, not after the run's whole deadline. Once the service has answered, the policy's own
 * count applies.
 */
export const FIRST_CONTACT_RETRIES = 2;

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** Whether a connection error with this code proves the request was never sent. */
export function requestNeverSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** IMF-fixdate, RFC 850 and asctime forms (RFC 9110, section 5.6.7). */
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Parses a `Retry-After` value (delta-seconds or HTTP-date) into milliseconds from `now`.
 * Returns undefined when the value is absent or malformed; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  // asctime has no zone but means GMT.
  const date = Date.parse(trimmed.endsWith("GMT") ? trimmed : `${trimmed} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with "equal jitter": half of the exponential step is kept, the other half is
 * random, so that clients spread out but never hammer the service with a near-zero wait.
 * `retryNumber` is 1 for the first retry.
 */
export function backoffDelay(retryNumber: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

function describeOutcome(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case "status":
      return `status ${outcome.status}`;
    case "connection":
      return `connection error ${outcome.code ?? "(no code)"}`;
    case "timeout":
      return "timeout";
  }
}

/**
 * Decides what to do after attempt number `attempt` (1 for the first) ended with `outcome`.
 *
 * Idempotent methods (GET, HEAD, PUT, DELETE) are retried on 408, 429, 5xx, timeouts and connection
 * errors. POST creates a resource, so it is retried only when the connection failed before the request
 * could be sent (ECONNREFUSED and the like): a timeout or a status means the service may have acted.
 * Before the service has answered at all (`reached` false), a network problem is retried
 * {@link FIRST_CONTACT_RETRIES} times only.
 */
export function decideRetry(input: {
  method: string;
  outcome: AttemptOutcome;
  attempt: number;
  policy: RetryPolicy;
  random: () => number;
  now: number;
  /** Whether the service has answered any request of this run yet (default true). */
  reached?: boolean;
}): RetryDecision {
  const { method, outcome, attempt, policy } = input;
  const what = describeOutcome(outcome);
  const idempotent = IDEMPOTENT_METHODS.has(method.toUpperCase());

  if (outcome.kind === "status") {
    if (!isRetryableStatus(outcome.status)) return { retry: false, reason: `${what} is not retryable` };
    if (!idempotent) return { retry: false, reason: `${what} on ${method} is not retried (not idempotent)` };
  } else if (outcome.kind === "timeout") {
    if (!idempotent) return { retry: false, reason: `timeout on ${method} is not retried (not idempotent)` };
  } else {
    if (outcome.code !== undefined && PERMANENT_CODES.has(outcome.code)) {
      return { retry: false, reason: `${what} is permanent` };
    }
    if (!idempotent && !requestNeverSent(outcome.code)) {
      return { retry: false, reason: `${what} on ${method} is not retried (the request may have been sent)` };
    }
  }

  const retryAfterMs = outcome.kind === "status" ? parseRetryAfter(outcome.retryAfter, input.now) : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    return {
      retry: false,
      reason: `${what} asks to wait ${retryAfterMs} ms, above the ${policy.maxRetryAfterMs} ms limit`,
      retryAfterMs,
    };
  }
  if (input.reached === false && outcome.kind !== "status" && attempt > FIRST_CONTACT_RETRIES) {
    return { retry: false, reason: `${what} after ${attempt} attempts, and the service never answered` };
  }
  if (attempt > policy.maxRetries) {
    return {
      retry: false,
      reason: `${what} after ${attempt} attempts`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (retryAfterMs !== undefined) {
    return { retry: true, delayMs: retryAfterMs, reason: `${what} with Retry-After` };
  }
  return { retry: true, delayMs: backoffDelay(attempt, policy, input.random), reason: what };
}

/** What one attempt came to, for {@link withRetries}. */
export type AttemptVerdict<T> =
  /** An answer to return. */
  | { kind: "done"; value: T }
  /** A failure no retry can mend (over a cap, past a deadline): thrown at once. */
  | { kind: "stop"; error: Error }
  /** A failure {@link decideRetry} judges; `error` is thrown when it is not retried. */
  | { kind: "failed"; outcome: AttemptOutcome; error: (retryAfterMs?: number) => Error };

export interface RetryLoopOptions {
  /** The call's method, as {@link decideRetry} reads it (what repeating it may do). */
  method: string;
  policy: RetryPolicy;
  random: () => number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** No retry is waited for when its wait would end at or past this instant (epoch ms). */
  until?: number | undefined;
  /** Whether the service has answered anything yet (see {@link FIRST_CONTACT_RETRIES}). */
  reached?: () => boolean;
  /** Told before each wait. */
  onRetry?: (attempt: number, wait: { delayMs: number; reason: string }) => void;
}

/**
 * The one retry loop of every HTTP call we make (GitBook's client, GitHub's and GitLab's): an attempt,
 * its verdict, {@link decideRetry}, a wait within the deadline, and again. Each client says only how to
 * attempt and what its answers mean.
 */
export async function withRetries<T>(
  options: RetryLoopOptions,
  attempt: (attemptNumber: number) => Promise<AttemptVerdict<T>>,
): Promise<T> {
  for (let number = 1; ; number++) {
    const verdict = await attempt(number);
    if (verdict.kind === "done") return verdict.value;
    if (verdict.kind === "stop") throw verdict.error;
    const decision = decideRetry({
      method: options.method,
      outcome: verdict.outcome,
      attempt: number,
      policy: options.policy,
      random: options.random,
      now: options.now(),
      ...(options.reached ? { reached: options.reached() } : {}),
    });
    if (!decision.retry) throw verdict.error(decision.retryAfterMs);
    // No retry can complete in the time left: the last answer is the verdict.
    if (options.until !== undefined && options.now() + decision.delayMs >= options.until)
      throw verdict.error();
    options.onRetry?.(number, decision);
    await options.sleep(decision.delayMs);
  }
}
