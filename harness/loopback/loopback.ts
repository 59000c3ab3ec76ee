/** A tiny HTTP server on 127.0.0.1 that records what it receives, for the client's transport tests. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closedPortUrl } from "./local-server.ts";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse, index: number) => unknown;

export interface LoopbackServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** How many TCP connections the server accepted. */
  connections(): number;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startServer(handler: Handler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server = createServer(async (request, response) => {
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: await readBody(request),
    };
    requests.push(recorded);
    await handler(recorded, response, requests.length - 1);
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  response.writeHead(status, {
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...headers,
  });
  response.end(text);
}

/** How much of an endless answer was written, and whether the reader hung up before its end. */
export interface StreamState {
  written: number;
  closedEarly: boolean;
}

/**
 * Answers 200 with `{"filesystem":`, then spaces (valid JSON whitespace) 1 MiB at a time, at the pace
 * the reader takes them (a full socket waits for `drain`), until `total` bytes or until the reader
 * closes the connection; then `[]}`. A client that read it all would get a valid version content.
 */
export async function streamLargeContent(
  response: ServerResponse,
  total: number,
  state: StreamState = { written: 0, closedEarly: false },
): Promise<StreamState> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"filesystem":');
  while (state.written < total) {
    if (response.destroyed) {
      state.closedEarly = true;
      return state;
    }
    const flowing = response.write(chunk);
    state.written += chunk.length;
    if (!flowing) {
      await new Promise<void>((resolve) => {
        response.once("drain", resolve);
        response.once("close", resolve);
      });
    }
  }
  response.end("[]}");
  return state;
}

/** A port nothing listens on: bind, read the port, close. */
export async function closedPort(): Promise<number> {
  return Number(new URL(await closedPortUrl()).port);
}

export function specBody(slug: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: "openapi-spec",
    id: `id-${slug}`,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    slug,
    processingState: "complete",
    lastProcessedErrorCount: 0,
    permissions: { view: true, edit: true },
    urls: { location: `https://api.example/v1/orgs/o/openapi/${slug}`, app: `https://app.example/${slug}` },
    ...overrides,
  };
}

/** A deterministic random source, so backoff delays are reproducible: the emulator's seeded PRNG. */
export { mulberry32 as seededRandom } from "../emulator/faults.ts";
