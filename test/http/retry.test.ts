import { describe, expect, it } from "vitest";
import { seededRandom } from "../../harness/loopback/loopback.ts";
import {
  type AttemptOutcome,
  type AttemptVerdict,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  FIRST_CONTACT_RETRIES,
  parseRetryAfter,
  type RetryLoopOptions,
  type RetryPolicy,
  withRetries,
} from "../../src/adapters/http/retry.ts";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

function decide(method: string, outcome: AttemptOutcome, attempt = 1, random = () => 0.5) {
  return decideRetry({ method, outcome, attempt, policy, random, now: NOW });
}

describe("decideRetry", () => {
  it("retries a network problem only a few times while the service has never answered", () => {
    const many: RetryPolicy = { ...policy, maxRetries: 20 };
    const first = (outcome: AttemptOutcome, attempt: number) =>
      decideRetry({
        method: "GET",
        outcome,
        attempt,
        policy: many,
        random: () => 0.5,
        now: NOW,
        reached: false,
      });
    for (const outcome of [
      { kind: "connection", code: "ECONNREFUSED" },
      { kind: "timeout" },
    ] as AttemptOutcome[]) {
      expect(first(outcome, FIRST_CONTACT_RETRIES).retry).toBe(true);
      const last = first(outcome, FIRST_CONTACT_RETRIES + 1);
      expect(last.retry).toBe(false);
      expect(last.reason).toMatch(/never answered/);
      // Once the service has answered, the policy's own count applies.
      expect(
        decideRetry({
          method: "GET",
          outcome,
          attempt: 10,
          policy: many,
          random: () => 0.5,
          now: NOW,
          reached: true,
        }).retry,
      ).toBe(true);
    }
    // A status is an answer: its retries follow the policy.
    expect(first({ kind: "status", status: 503 }, 10).retry).toBe(true);
  });

  it.each([408, 429, 500, 502, 503, 504, 599])("retries status %i for idempotent methods", (status) => {
    for (const method of ["GET", "PUT", "DELETE", "HEAD"]) {
      expect(decide(method, { kind: "status", status }).retry).toBe(true);
    }
  });

  it.each([400, 401, 403, 404, 409, 422, 302])("does not retry status %i", (status) => {
    expect(decide("GET", { kind: "status", status }).retry).toBe(false);
  });

  it("never retries POST on a status or a timeout", () => {
    for (const status of [408, 429, 500, 503]) {
      const decision = decide("POST", { kind: "status", status });
      expect(decision.retry).toBe(false);
      expect(decision.reason).toContain("not idempotent");
    }
    expect(decide("POST", { kind: "timeout" }).retry).toBe(false);
  });

  it("retries POST only when the connection failed before the request was sent", () => {
    expect(decide("POST", { kind: "connection", code: "ECONNREFUSED" }).retry).toBe(true);
    expect(decide("POST", { kind: "connection", code: "UND_ERR_CONNECT_TIMEOUT" }).retry).toBe(true);
    expect(decide("POST", { kind: "connection", code: "ECONNRESET" }).retry).toBe(false);
    expect(decide("POST", { kind: "connection", code: "UND_ERR_SOCKET" }).retry).toBe(false);
    expect(decide("POST", { kind: "connection", code: undefined }).retry).toBe(false);
  });

  it("retries timeouts and connection errors for idempotent methods, but not permanent DNS failures", () => {
    expect(decide("GET", { kind: "timeout" }).retry).toBe(true);
    expect(decide("PUT", { kind: "connection", code: "ECONNRESET" }).retry).toBe(true);
    expect(decide("GET", { kind: "connection", code: "ENOTFOUND" }).retry).toBe(false);
  });

  it("gives up after maxRetries retries", () => {
    const outcome: AttemptOutcome = { kind: "status", status: 503 };
    expect(decide("GET", outcome, 3).retry).toBe(true);
    const last = decide("GET", outcome, 4);
    expect(last.retry).toBe(false);
    expect(last.reason).toContain("4 attempts");
  });

  it("waits as long as Retry-After says, in seconds or as an HTTP date", () => {
    expect(decide("GET", { kind: "status", status: 429, retryAfter: "3" })).toMatchObject({
      retry: true,
      delayMs: 3000,
    });
    const date = new Date(NOW + 2500).toUTCString(); // HTTP dates have whole seconds: 2 s
    expect(decide("GET", { kind: "status", status: 503, retryAfter: date })).toMatchObject({
      retry: true,
      delayMs: 2000,
    });
  });

  it("gives up, saying when, if Retry-After is above maxRetryAfterMs", () => {
    const decision = decide("GET", { kind: "status", status: 429, retryAfter: "120" });
    expect(decision).toMatchObject({ retry: false, retryAfterMs: 120_000 });
    expect(decision.reason).toContain("above the 5000 ms limit");
  });

  it("falls back to backoff on a malformed Retry-After", () => {
    const decision = decide("GET", { kind: "status", status: 429, retryAfter: "soon-ish 12" }, 1, () => 0);
    expect(decision).toMatchObject({ retry: true, delayMs: 50 });
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates, and rejects the rest", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter(" 7 ", NOW)).toBe(7000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:10 GMT", NOW)).toBe(10_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("Sunday, 01-Mar-26 12:00:05 GMT", NOW)).toBe(5000);
    expect(parseRetryAfter("Sun Mar  1 12:00:05 2026", NOW)).toBe(5000);
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter("-1", NOW)).toBeUndefined();
    expect(parseRetryAfter("1.5", NOW)).toBeUndefined();
    expect(parseRetryAfter("tomorrow", NOW)).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  it("grows exponentially with equal jitter and stays within [step/2, step], capped", () => {
    const random = seededRandom(42);
    for (let retry = 1; retry <= 10; retry++) {
      const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
      const delay = backoffDelay(retry, policy, random);
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    }
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
    expect(backoffDelay(20, policy, () => 1)).toBe(1000);
  });

  it("is reproducible with a seeded random source", () => {
    const first = [1, 2, 3, 4].map((n) => backoffDelay(n, DEFAULT_RETRY_POLICY, seededRandom(7)));
    const second = [1, 2, 3, 4].map((n) => backoffDelay(n, DEFAULT_RETRY_POLICY, seededRandom(7)));
    expect(first).toEqual(second);
    expect(
      new Set([1, 2, 3].map((seed) => backoffDelay(4, DEFAULT_RETRY_POLICY, seededRandom(seed)))).size,
    ).toBe(3);
  });
});

describe("withRetries", () => {
  const loop = (extra: Partial<RetryLoopOptions> = {}) => {
    const waits: number[] = [];
    let clock = NOW;
    const options: RetryLoopOptions = {
      method: "GET",
      policy,
      random: () => 0.5,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      ...extra,
    };
    return { options, waits };
  };
  const failed = (status: number): AttemptVerdict<string> => ({
    kind: "failed",
    outcome: { kind: "status", status },
    error: () => new Error(`status ${status}`),
  });

  it("tries again after a retryable failure, waiting as decideRetry says, until an answer", async () => {
    const { options, waits } = loop();
    const seen: number[] = [];
    const value = await withRetries(options, async (n) => {
      seen.push(n);
      return n < 3 ? failed(503) : { kind: "done", value: "ok" };
    });
    expect(value).toBe("ok");
    expect(seen).toEqual([1, 2, 3]);
    expect(waits).toHaveLength(2);
  });

  it("throws a stop at once, and a failure decideRetry does not retry", async () => {
    const { options, waits } = loop();
    await expect(
      withRetries(options, async () => ({ kind: "stop", error: new Error("too large") })),
    ).rejects.toThrow("too large");
    await expect(withRetries(options, async () => failed(404))).rejects.toThrow("status 404");
    expect(waits).toEqual([]);
  });

  it("does not wait for a retry that would end past its deadline", async () => {
    const { options, waits } = loop({ until: NOW + 10 });
    let attempts = 0;
    await expect(
      withRetries(options, async () => {
        attempts++;
        return failed(503);
      }),
    ).rejects.toThrow("status 503");
    expect(attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});
