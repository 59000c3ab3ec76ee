import type { ServerResponse } from "node:http";

/**
 * What the fake review hosts share: reading a request's JSON, answering in JSON, and the faults a test
 * injects (a status, an answer lost after the write was applied, a dropped connection, a hang, a huge
 * answer) and the gates that hold requests so that two runs race for real.
 */

/** A request body's JSON; undefined when it does not parse. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `body` string of a JSON request body; undefined (a client error) when there is none. */
export function bodyField(raw: string): string | undefined {
  const parsed = parseJson(raw);
  if (typeof parsed === "object" && parsed !== null && "body" in parsed && typeof parsed.body === "string") {
    return parsed.body;
  }
  return undefined;
}

/** The list kept under `key`, made empty on first use: a fake's comments of one pull request. */
export function listOf<T>(map: Map<number, T[]>, key: number): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

export interface Reply {
  status: number;
  payload: unknown;
  headers: Record<string, string>;
}

export function reply(status: number, payload: unknown, headers: Record<string, string> = {}): Reply {
  return { status, payload, headers };
}

export function send(res: ServerResponse, { status, payload, headers }: Reply): void {
  if (payload === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(payload));
}

/** Which requests a fault or a gate applies to: every field given must match. */
export interface FaultMatch {
  method?: string;
  /** A regular expression tested against the request's path (without the fake's prefix or query). */
  path?: RegExp;
  /** A regular expression tested against the request's body, where the fake passes it. */
  body?: RegExp;
}

export type FaultKind =
  /** Answer this status (with a JSON message) instead of handling the request. */
  | { status: number; retryAfter?: number }
  /** Handle the request (a POST creates its comment), then answer this status as if the answer were lost. */
  | { applyThenStatus: number }
  /** Handle the request, then close the connection without answering. */
  | { applyThenDrop: true }
  /** Accept the request and never answer. */
  | { hang: true }
  /**
   * Answer 200 with a JSON body of this many bytes, streamed; with `declareLength`, announced in
   * `content-length` (else chunked, so that only counting tells its size). With `apply`, the request is
   * handled first (a POST creates its comment) and the huge body replaces its answer.
   */
  | { hugeBody: number; declareLength?: boolean; apply?: boolean };

function matches(match: FaultMatch, method: string, path: string, body: string): boolean {
  return (
    (match.method === undefined || match.method === method) &&
    (match.path === undefined || match.path.test(path)) &&
    (match.body === undefined || match.body.test(body))
  );
}

/** Faults queued by a test, each for its next `times` matching requests. */
export class Faults {
  readonly #queue: { match: FaultMatch; fault: FaultKind; left: number }[] = [];

  add(match: FaultMatch, fault: FaultKind, times = 1): void {
    this.#queue.push({ match, fault, left: times });
  }

  /** The fault for this request, if any, counted as used. */
  take(method: string, path: string, body = ""): FaultKind | undefined {
    const entry = this.#queue.find(({ match, left }) => left > 0 && matches(match, method, path, body));
    if (!entry) return undefined;
    entry.left--;
    return entry.fault;
  }
}

/**
 * Holds requests until `count` matching ones are waiting, then lets them all through in arrival order,
 * once: two runs that each look for their comment and then create one both send their create before
 * either is applied, whatever the scheduling.
 */
export class Gates {
  readonly #gates: { match: FaultMatch; count: number; waiting: (() => void)[] }[] = [];

  add(match: FaultMatch, count: number): void {
    this.#gates.push({ match, count, waiting: [] });
  }

  /** Resolves when the request may be handled. */
  pass(method: string, path: string, body = ""): Promise<void> {
    const gate = this.#gates.find((g) => g.count > 0 && matches(g.match, method, path, body));
    if (!gate) return Promise.resolve();
    return new Promise((resolve) => {
      gate.waiting.push(resolve);
      if (gate.waiting.length < gate.count) return;
      gate.count = 0;
      for (const release of gate.waiting.splice(0)) release();
    });
  }
}

/**
 * Answers a fault; returns false when the request is to be handled normally (no fault, or one applied
 * after handling: `applyThen…`, which `answerAfter` finishes).
 */
export function answerFault(res: ServerResponse, fault: FaultKind | undefined): boolean {
  if (!fault) return false;
  if ("hang" in fault) return true;
  if ("status" in fault) {
    const headers: Record<string, string> =
      fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
    send(res, reply(fault.status, { message: `${fault.status} fault injected` }, headers));
    return true;
  }
  if ("hugeBody" in fault && !fault.apply) {
    streamHugeBody(res, fault.hugeBody, fault.declareLength ?? false);
    return true;
  }
  return false;
}

/** Sends `answer`, or what a fault applied after handling says instead. */
export function answerAfter(res: ServerResponse, fault: FaultKind | undefined, answer: Reply): void {
  if (fault && "applyThenStatus" in fault) {
    send(res, reply(fault.applyThenStatus, { message: `${fault.applyThenStatus} answer lost` }));
    return;
  }
  if (fault && "applyThenDrop" in fault) {
    res.socket?.destroy();
    return;
  }
  if (fault && "hugeBody" in fault) {
    streamHugeBody(res, fault.hugeBody, fault.declareLength ?? false);
    return;
  }
  send(res, answer);
}

/** A JSON string of `bytes` bytes, written in 64 KiB chunks as the client takes them. */
function streamHugeBody(res: ServerResponse, bytes: number, declareLength: boolean): void {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (declareLength) headers["content-length"] = String(bytes);
  res.writeHead(200, headers);
  const chunk = Buffer.alloc(64 * 1024, "a");
  let left = bytes - 2;
  res.write('"');
  const pump = () => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end('"');
  };
  res.on("close", () => {
    left = 0;
  });
  pump();
}
