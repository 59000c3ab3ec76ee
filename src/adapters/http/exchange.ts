/**
 * One HTTP attempt, the same for every call we make (GitBook, GitHub, GitLab): sent with undici's
 * `request` (which never follows a redirect, so a credential stays with the origin it was set for),
 * waited for at most the attempt's timeout or what is left before the deadline, and read up to a cap
 * chosen by whether the answer is a success. Whether to try again is {@link withRetries}' decision
 * (./retry.ts), from the {@link outcomeOf} of each attempt; what an answer means is the caller's.
 */
import type { Dispatcher } from "undici";
import type { AttemptOutcome } from "./retry.ts";
import { request } from "./undici.ts";

export interface ExchangeRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  dispatcher?: Dispatcher | undefined;
  /** The longest wait for one answer. */
  timeoutMs: number;
  /** Epoch milliseconds (on `now`'s clock) after which nothing is sent or waited for; undefined: none. */
  until?: number | undefined;
  now: () => number;
  /** The most bytes of a success answer that are read. */
  successCap: number;
  /** The most bytes of an error answer that are read: enough for its reason. */
  errorCap: number;
}

export type Exchange =
  /** `complete` is false for an error answer cut at its cap: `bytes` holds its head. */
  | { kind: "answer"; status: number; headers: Record<string, string>; bytes: Buffer; complete: boolean }
  /** A success answer over the success cap, never read whole: `size` as announced or as read. */
  | { kind: "too-large"; status: number; size: number; announced: boolean }
  | { kind: "connection"; code: string | undefined; reason: string }
  /** No answer in time; `cut`: the wait was cut short by the deadline rather than by the timeout. */
  | { kind: "timeout"; ms: number; cut: boolean }
  /** Not sent: the deadline had passed. */
  | { kind: "deadline" };

export async function exchange(call: ExchangeRequest): Promise<Exchange> {
  const left = call.until === undefined ? Number.POSITIVE_INFINITY : call.until - call.now();
  if (left <= 0) return { kind: "deadline" };
  const ms = Math.min(call.timeoutMs, left);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const answer = await request(call.url, {
      method: call.method as Dispatcher.HttpMethod,
      headers: call.headers,
      signal: controller.signal,
      ...(call.body !== undefined ? { body: call.body } : {}),
      ...(call.dispatcher ? { dispatcher: call.dispatcher } : {}),
    });
    const status = answer.statusCode;
    const headers = flatHeaders(answer.headers);
    const success = status >= 200 && status < 300;
    const read = await readCapped(answer.body, headers, success ? call.successCap : call.errorCap);
    if (read.kind === "body") return { kind: "answer", status, headers, bytes: read.bytes, complete: true };
    if (success) return { kind: "too-large", status, size: read.size, announced: read.announced };
    return { kind: "answer", status, headers, bytes: read.head, complete: false };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout", ms, cut: ms < call.timeoutMs };
    const root = rootNetworkError(error);
    return { kind: "connection", code: root.code, reason: root.message };
  } finally {
    clearTimeout(timer);
  }
}

/** What the retry decision needs to know of an attempt that did not succeed. */
export function outcomeOf(result: Exclude<Exchange, { kind: "too-large" }>): AttemptOutcome {
  switch (result.kind) {
    case "answer":
      return { kind: "status", status: result.status, retryAfter: result.headers["retry-after"] };
    case "connection":
      return { kind: "connection", code: result.code };
    case "timeout":
    case "deadline":
      return { kind: "timeout" };
  }
}

export function isSuccess(result: Exchange): result is Extract<Exchange, { kind: "answer" }> {
  return result.kind === "answer" && result.status >= 200 && result.status < 300;
}

type CappedRead =
  | { kind: "body"; bytes: Buffer }
  | { kind: "too-large"; size: number; announced: boolean; head: Buffer };

/**
 * Reads a body up to `cap` bytes. A declared length over the cap stops before the first byte; an
 * undeclared one stops at the first chunk past the cap, keeping the head. Either way the stream is
 * destroyed, which closes the connection rather than draining the rest.
 */
async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  headers: Record<string, string>,
  cap: number,
): Promise<CappedRead> {
  const declared = headers["content-length"]?.trim();
  if (declared !== undefined && /^\d{1,15}$/.test(declared) && Number(declared) > cap) {
    body.destroy();
    return { kind: "too-large", size: Number(declared), announced: true, head: Buffer.alloc(0) };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    if (total + chunk.byteLength > cap) {
      chunks.push(chunk.subarray(0, cap - total));
      body.destroy();
      return {
        kind: "too-large",
        size: total + chunk.byteLength,
        announced: false,
        head: Buffer.concat(chunks),
      };
    }
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  return { kind: "body", bytes: Buffer.concat(chunks, total) };
}

/** Lowercase names; a repeated header keeps its first value. */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) flat[name.toLowerCase()] = first;
  }
  return flat;
}

/** Finds the error that says what went wrong: undici and Node wrap it in `cause` or `errors`. */
export function rootNetworkError(error: unknown): { code: string | undefined; message: string } {
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
