import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ApiContext, handleRoute, type Reply } from "./api.ts";
import { sendContent, waitUnlessClosed } from "./content-stream.ts";
import type { FaultAction, FaultInjector } from "./faults.ts";
import { ApiError } from "./request-body.ts";
import { matchRoute } from "./routes.ts";

export interface RecordedRequest {
  method: string;
  /** Path without the query, as sent (not decoded). */
  path: string;
  /** Query string without the leading "?". */
  query: string;
  /** Status answered; 0 while in flight and for dropped connections. */
  status: number;
  authorization?: string;
  contentType?: string;
  userAgent?: string;
  bodyBytes: number;
  /** Epoch milliseconds at arrival. */
  at: number;
  /** Epoch milliseconds when the answer was sent (its status set); absent while in flight or dropped. */
  answeredAt?: number;
}

export interface TransportOptions {
  token: string;
  maxBodyBytes: number;
  faults: FaultInjector;
  requests: RecordedRequest[];
  api: ApiContext;
}

/** The node:http request listener: records, reads the body, injects faults, authenticates, routes. */
export function createRequestListener(
  options: TransportOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, undefined, errorReply(500, `Emulator failure: ${String(error)}`));
      else res.destroy();
    });
  };
}

async function handle(options: TransportOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const record: RecordedRequest = {
    method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    status: 0,
    ...header("authorization", req.headers.authorization),
    ...header("contentType", req.headers["content-type"]),
    ...header("userAgent", req.headers["user-agent"]),
    bodyBytes: 0,
    at: Date.now(),
  };
  options.requests.push(record);

  const body = await readBody(req, options.maxBodyBytes, record);
  if (body === undefined) {
    send(res, record, errorReply(413, `The request body exceeds ${options.maxBodyBytes} bytes`), true);
    return;
  }

  const isApi = url.pathname === "/v1" || url.pathname.startsWith("/v1/");
  if (isApi) {
    const decision = options.faults.decide(method, url.pathname);
    if (decision.delayMs > 0 && !(await waitUnlessClosed(res, decision.delayMs))) return;
    if (applyFault(res, record, decision.action)) return;
    if (!isAuthorized(req.headers.authorization, options.token)) {
      send(
        res,
        record,
        errorReply(401, "Missing or invalid token: send the header Authorization: Bearer <API token>"),
      );
      return;
    }
  }

  const match = matchRoute(method, url.pathname);
  if (!match.found) {
    if (match.status === 405) {
      const reply = errorReply(
        405,
        `${method} is not allowed on ${url.pathname}; use ${match.allow.join(", ")}`,
      );
      send(res, record, { ...reply, headers: { allow: match.allow.join(", ") } });
    } else {
      send(res, record, errorReply(404, `No route for ${method} ${url.pathname}`));
    }
    return;
  }
  let reply: Reply;
  try {
    reply = handleRoute(options.api, match.route, {
      method,
      query: url.searchParams,
      body,
      ...(req.headers["content-type"] !== undefined ? { contentType: req.headers["content-type"] } : {}),
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    reply = { ...errorReply(error.status, error.message), headers: error.headers };
  }
  if (match.route.name === "getContent" && reply.status === 200 && "json" in reply) {
    await sendContent(res, Buffer.from(JSON.stringify(reply.json)), options.faults.contentFaults(), () => {
      record.status = 200;
      record.answeredAt = Date.now();
    });
    return;
  }
  send(res, record, reply);
}

/** Returns true when the fault answered (or dropped) the request. */
function applyFault(res: ServerResponse, record: RecordedRequest, action: FaultAction): boolean {
  switch (action.kind) {
    case "none":
      return false;
    case "drop":
      res.socket?.destroy();
      return true;
    case "status": {
      const headers: Record<string, string> =
        action.retryAfter !== undefined ? { "retry-after": action.retryAfter } : {};
      const json = action.body ?? {
        error: { code: action.status, message: `Injected fault: HTTP ${action.status}` },
      };
      send(res, record, { status: action.status, json, headers });
      return true;
    }
  }
}

function isAuthorized(authorization: string | undefined, token: string): boolean {
  if (authorization === undefined) return false;
  const given = Buffer.from(authorization);
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Reads the whole body, or returns undefined (and discards the rest) when it exceeds `limit`. */
async function readBody(
  req: IncomingMessage,
  limit: number,
  record: RecordedRequest,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    record.bodyBytes += chunk.length;
    if (record.bodyBytes > limit) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks);
}

function errorReply(status: number, message: string): Reply & { json: unknown } {
  return { status, json: { error: { code: status, message } } };
}

function send(res: ServerResponse, record: RecordedRequest | undefined, reply: Reply, close = false): void {
  if (record !== undefined) {
    record.status = reply.status;
    record.answeredAt = Date.now();
  }
  const connection = close ? { connection: "close" } : {};
  if ("json" in reply) {
    const payload = Buffer.from(JSON.stringify(reply.json));
    res.writeHead(reply.status, {
      ...reply.headers,
      ...connection,
      "content-type": "application/json; charset=utf-8",
      "content-length": payload.length,
    });
    res.end(payload);
  } else if ("text" in reply) {
    const payload = Buffer.from(reply.text);
    res.writeHead(reply.status, {
      ...connection,
      "content-type": reply.contentType,
      "content-length": payload.length,
    });
    res.end(payload);
  } else {
    res.writeHead(reply.status, connection);
    res.end();
  }
}

function header<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
