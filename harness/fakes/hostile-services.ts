/**
 * Loopback stand-ins for a GitBook API and a GitHub API that answer with whatever a test chooses — the
 * token echoed back, line breaks and workflow commands in ids, URLs and messages — for the end-to-end
 * tests of what the action shows (log-safety.e2e.test.ts).
 */
import type { IncomingMessage } from "node:http";
import { startLocalServer } from "../loopback/local-server.ts";

export interface Answer {
  status: number;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface StandInRequest {
  method: string;
  /** Path without the query, e.g. "/v1/orgs/org/openapi/widgets-pr-7". */
  path: string;
  /** The spec slug of an `/openapi/{slug}…` path. */
  slug: string | undefined;
  body: string;
  authorization: string | undefined;
}

export interface StandIn {
  url: string;
  requests: StandInRequest[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that answers every request with `answer(request)`. */
export async function startStandIn(answer: (request: StandInRequest) => Answer): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const server = await startLocalServer(async (req, res) => {
    const request = await readRequest(req);
    requests.push(request);
    const reply = answer(request);
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? null);
    res.writeHead(reply.status, {
      ...(reply.body === undefined ? {} : { "content-type": "application/json" }),
      ...reply.headers,
    });
    res.end(reply.body === undefined ? undefined : text);
  });
  return { url: server.url, requests, close: () => server.close() };
}

async function readRequest(req: IncomingMessage): Promise<StandInRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const path = new URL(req.url ?? "/", "http://stand-in").pathname;
  const slug = /\/openapi\/([^/]+)/.exec(path)?.[1];
  return {
    method: req.method ?? "GET",
    path,
    slug: slug === undefined ? undefined : decodeURIComponent(slug),
    body: Buffer.concat(chunks).toString("utf8"),
    authorization: req.headers.authorization,
  };
}

const AT = "2026-01-01T00:00:00.000Z";

/** A spec the client accepts, already processed (so the run reads its version next); `fields` override. */
export function specBody(slug: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: "openapi-spec",
    id: `spec-${slug}`,
    slug,
    processingState: "complete",
    createdAt: AT,
    updatedAt: AT,
    lastProcessedAt: AT,
    lastVersion: `version-${slug}`,
    permissions: { edit: true },
    urls: { location: `https://api.example/specs/${slug}`, app: `https://app.example/specs/${slug}` },
    ...fields,
  };
}

export function versionBody(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: "openapi-spec-version",
    id,
    createdAt: AT,
    url: `https://api.example/versions/${id}`,
    urls: { location: `https://api.example/versions/${id}`, app: `https://app.example/versions/${id}` },
    ...fields,
  };
}

export interface GitHubStandInOptions {
  /** The bot login GraphQL's `viewer` names (as a workflow's GITHUB_TOKEN would). */
  viewer?: string;
  /** The comments already on the pull request. */
  comments?: { id: number; body: string; login: string }[];
  /** How to answer creating or editing a comment; default 201 with the comment. */
  write?: (body: string) => Answer;
  /** How to answer anything else; default 404. */
  other?: () => Answer;
}

/** The account id of the viewer's bot (github-actions[bot]'s). */
const ACCOUNT_ID = 41898282;

/** A GitHub API with the calls the pull request comment makes; every comment body sent is recorded. */
export async function startGitHubStandIn(options: GitHubStandInOptions = {}) {
  const bodiesSent: string[] = [];
  const login = options.viewer ?? "github-actions[bot]";
  const standIn = await startStandIn((request) => {
    if (request.method === "POST" && request.path === "/graphql") {
      return { status: 200, body: { data: { viewer: { login, databaseId: ACCOUNT_ID } } } };
    }
    if (/^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(request.path) && request.method === "GET") {
      return {
        status: 200,
        body: (options.comments ?? []).map((c) => ({
          id: c.id,
          body: c.body,
          html_url: `https://github.example/c/${c.id}`,
          user: {
            login: c.login,
            id: c.login === login ? ACCOUNT_ID : ACCOUNT_ID + 1,
            type: c.login.endsWith("[bot]") ? "Bot" : "User",
          },
        })),
      };
    }
    if (request.method === "POST" || request.method === "PATCH") {
      const body = (JSON.parse(request.body || "{}") as { body?: string }).body ?? "";
      bodiesSent.push(body);
      return (
        options.write?.(body) ?? {
          status: 201,
          body: { id: 1, body, html_url: "https://github.example/c/1", user: { login, type: "Bot" } },
        }
      );
    }
    return options.other?.() ?? { status: 404, body: { message: "Not Found" } };
  });
  return { ...standIn, bodiesSent };
}
