/**
 * The loopback server under every fake review host (GitHub, GitLab, Bitbucket, Azure DevOps): it reads
 * each request whole, records it as the fake describes it, lets the test's gates and faults act on it
 * (see http-reply.ts), then sends what the fake's handler answers. Each fake keeps its host's routes,
 * accounts, errors and paging in its own file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  answerAfter,
  answerFault,
  type FaultKind,
  type FaultMatch,
  Faults,
  Gates,
  type Reply,
} from "./http-reply.ts";

/** What every fake lets a test do beside reading its host's state. */
export interface FakeControls {
  /** The next `times` requests matching `match` get `fault` instead of (or after) being handled. */
  fail(match: FaultMatch, fault: FaultKind, times?: number): void;
  /** Holds requests matching `match` until `count` of them wait, then handles them all (see `Gates`). */
  hold(match: FaultMatch, count: number): void;
  close(): Promise<void>;
}

/** A request as the server read it. */
export interface Received {
  req: IncomingMessage;
  /** The fake's own origin, "http://127.0.0.1:<port>". */
  origin: string;
  /** The request's URL, resolved against `origin`. */
  url: URL;
  /** The request body as text ("" when there is none). */
  body: string;
}

/** What faults and gates match a request by: its method, its path below the fake's prefix, its body. */
export interface RecordedBase {
  method: string;
  /** Path below the fake's prefix (GitHub Enterprise's "/api/v3", GitLab's "/api/v4", …), without the query. */
  path: string;
  /** The request body as text ("" when there is none). */
  body: string;
}

export interface FakeServerOptions<R extends RecordedBase> {
  /** The request as the fake records it in `requests`. */
  record(received: Received): R;
  /** Answers a request before gates and faults act on it (a refused sign-in); true when it did. */
  refuse?(record: R, res: ServerResponse): boolean;
  /** The answer to a request, which a fault applied after handling may replace. */
  handle(record: R, received: Received): Reply;
  /** Accept every connection and never answer: a host that hangs. */
  hang?: boolean;
}

export interface FakeServer<R extends RecordedBase> extends FakeControls {
  origin: string;
  /** Every request received, in order. */
  requests: R[];
}

/** Starts the server on a free loopback port. */
export async function startFakeServer<R extends RecordedBase>(
  options: FakeServerOptions<R>,
): Promise<FakeServer<R>> {
  const requests: R[] = [];
  const faults = new Faults();
  const gates = new Gates();
  let origin = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: Received = {
        req,
        origin,
        url: new URL(req.url ?? "/", origin),
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const record = options.record(received);
      requests.push(record);
      if (options.hang) return;
      if (options.refuse?.(record, res)) return;
      void gates.pass(record.method, record.path, record.body).then(() => {
        const fault = faults.take(record.method, record.path, record.body);
        if (answerFault(res, fault)) return;
        answerAfter(res, fault, options.handle(record, received));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    fail: (match, fault, times = 1) => faults.add(match, fault, times),
    hold: (match, count) => gates.add(match, count),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** What every fake records of a request; a fake adds its host's own fields. */
export interface RecordedRequestBase extends RecordedBase {
  /** Path and query as received, prefix included. */
  url: string;
  /** The `Authorization` header as sent, or undefined. */
  authorization: string | undefined;
}

/** The request's common record, its `path` below `prefix`. */
export function recordOf({ req, url, body }: Received, prefix: string): RecordedRequestBase {
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    path: pathBelow(url, prefix),
    authorization: req.headers.authorization,
    body,
  };
}

/** The path below `prefix`, or the whole path when it lies elsewhere. */
export function pathBelow(url: URL, prefix: string): string {
  return url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
}

/**
 * The page a list request asks for as GitHub and GitLab read it: `per_page` (`defaultPerPage` when
 * absent or zero, at most 100) and `page` (from 1), and the address of another page of the same list.
 */
export function pageAsked(
  url: URL,
  defaultPerPage: number,
): { perPage: number; page: number; pageUrl(n: number): string } {
  const perPage = Math.min(
    Math.max(Number(url.searchParams.get("per_page") ?? defaultPerPage) || defaultPerPage, 1),
    100,
  );
  const page = Math.max(Number(url.searchParams.get("page") ?? 1) || 1, 1);
  const pageUrl = (n: number) => {
    const u = new URL(url.href);
    u.searchParams.set("per_page", String(perPage));
    u.searchParams.set("page", String(n));
    return u.href;
  };
  return { perPage, page, pageUrl };
}
