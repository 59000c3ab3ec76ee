/**
 * A fake of the GitHub REST API's issue-comment endpoints on a loopback socket, for tests that drive a
 * real Octokit (`getOctokit(token, { baseUrl: fake.apiUrl })`) or the whole action
 * (`GITHUB_API_URL=fake.apiUrl`).
 *
 * Implemented, under `apiUrl` (which carries `pathPrefix`, for example "/api/v3" as on GHES):
 * - `GET    /repos/{owner}/{repo}/issues/{number}/comments?per_page=&page=` — oldest first, `per_page`
 *   30 by default and at most 100, with a `Link` header (rel="next", "prev", "first", "last") like GitHub's
 * - `POST   /repos/{owner}/{repo}/issues/{number}/comments` `{ body }` → 201
 * - `GET    /repos/{owner}/{repo}/issues/comments/{id}`
 * - `PATCH  /repos/{owner}/{repo}/issues/comments/{id}` `{ body }` → 200, 404 for an unknown id
 * - `DELETE /repos/{owner}/{repo}/issues/comments/{id}` → 204
 * - `POST   /graphql` (on GHES `/api/graphql`) answering `query { viewer { login } }` with `viewerLogin`
 * Comments created through the API are written by the token's identity, `<viewerLogin>[bot]` as REST
 * names a GitHub App's bot. Everything else answers 404 `{"message":"Not Found"}`. Every request is recorded in `requests`.
 * Comments are kept per issue number (the repository in the path is not checked).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyField, type Reply, reply, send } from "./http-reply.ts";

export interface RecordedRequest {
  method: string;
  /** Path and query as received, including `pathPrefix`. */
  url: string;
  /** Path without the query and without `pathPrefix`, for example "/repos/o/r/issues/7/comments". */
  path: string;
  /** The `Authorization` header as sent, or undefined. */
  authorization: string | undefined;
  /** The request body as text ("" when there is none). */
  body: string;
}

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string; type: "User" | "Bot" };
  created_at: string;
  updated_at: string;
}

export interface FakeGitHubOptions {
  /** Prepended to every route, as GitHub Enterprise Server's "/api/v3". Default "". */
  pathPrefix?: string;
  /** Answer 403 to every POST, PATCH and DELETE from the start (see `forbidWrites`). */
  forbidWrites?: boolean;
  /** The login GraphQL's `viewer` names for the token. Default "github-actions" (a workflow's token). */
  viewerLogin?: string;
  /** Accept every connection and never answer: a GitHub that hangs. */
  hang?: boolean;
}

/** Who wrote a seeded comment. Default: a user "someone". */
export interface FakeAuthor {
  login: string;
  type: "User" | "Bot";
}

export interface FakeGitHub {
  /** Base URL to give Octokit, for example "http://127.0.0.1:41234" or ".../api/v3". */
  apiUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The comments of an issue, oldest first (copies). */
  comments(issueNumber: number): FakeComment[];
  /** Adds comments written by `author` (default a user "someone"), as if posted before the test. */
  seedComments(issueNumber: number, bodies: string[], author?: FakeAuthor): FakeComment[];
  /** While true, writes answer 403 "Resource not accessible by integration". */
  forbidWrites(flag: boolean): void;
  close(): Promise<void>;
}

const FIXED_TIME = "2026-01-01T00:00:00Z";

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const prefix = (options.pathPrefix ?? "").replace(/\/+$/, "");
  const requests: RecordedRequest[] = [];
  const byIssue = new Map<number, FakeComment[]>();
  let writesForbidden = options.forbidWrites ?? false;
  let nextId = 1000;
  let origin = "";

  const issueComments = (issue: number): FakeComment[] => {
    let list = byIssue.get(issue);
    if (!list) {
      list = [];
      byIssue.set(issue, list);
    }
    return list;
  };
  const viewerLogin = options.viewerLogin ?? "github-actions";
  const tokenAuthor: FakeAuthor = { login: `${viewerLogin}[bot]`, type: "Bot" };
  const addComment = (issue: number, owner: string, repo: string, body: string, author: FakeAuthor) => {
    const id = nextId++;
    const comment: FakeComment = {
      id,
      body,
      html_url: `https://github.example/${owner}/${repo}/pull/${issue}#issuecomment-${id}`,
      user: { ...author },
      created_at: FIXED_TIME,
      updated_at: FIXED_TIME,
    };
    issueComments(issue).push(comment);
    return comment;
  };
  const findById = (id: number): { list: FakeComment[]; index: number } | undefined => {
    for (const list of byIssue.values()) {
      const index = list.findIndex((c) => c.id === id);
      if (index >= 0) return { list, index };
    }
    return undefined;
  };

  const handle = (req: IncomingMessage, rawBody: string): Reply => {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    const graphql = method === "POST" && (url.pathname === "/graphql" || url.pathname === "/api/graphql");
    requests.push({
      method,
      url: req.url ?? "/",
      path,
      authorization: req.headers.authorization,
      body: rawBody,
    });

    if (graphql) {
      return /\bviewer\s*\{\s*login\s*\}/.test(rawBody)
        ? reply(200, { data: { viewer: { login: viewerLogin } } })
        : reply(200, { errors: [{ message: "This fake only answers viewer { login }" }] });
    }
    const isWrite = method === "POST" || method === "PATCH" || method === "DELETE";
    if (isWrite && writesForbidden) {
      return reply(403, {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
        status: "403",
      });
    }

    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path);
    if (list) {
      const [, owner = "", repo = "", issueText = ""] = list;
      const issue = Number(issueText);
      if (method === "GET") {
        const perPage = Math.min(Math.max(Number(url.searchParams.get("per_page") ?? 30) || 30, 1), 100);
        const page = Math.max(Number(url.searchParams.get("page") ?? 1) || 1, 1);
        const all = issueComments(issue);
        const last = Math.max(Math.ceil(all.length / perPage), 1);
        const pageUrl = (n: number) => {
          const u = new URL(url.href);
          u.searchParams.set("per_page", String(perPage));
          u.searchParams.set("page", String(n));
          return u.href;
        };
        const links: string[] = [];
        if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
        if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`, `<${pageUrl(1)}>; rel="first"`);
        const headers: Record<string, string> = links.length > 0 ? { link: links.join(", ") } : {};
        return reply(200, all.slice((page - 1) * perPage, page * perPage), headers);
      }
      if (method === "POST") {
        const body = bodyField(rawBody);
        if (body === undefined) return reply(422, { message: "Invalid request: body is required" });
        return reply(201, addComment(issue, owner, repo, body, tokenAuthor));
      }
    }

    const single = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
    if (single) {
      const found = findById(Number(single[1]));
      if (!found) return reply(404, { message: "Not Found" });
      const comment = found.list[found.index] as FakeComment;
      if (method === "GET") return reply(200, comment);
      if (method === "PATCH") {
        const body = bodyField(rawBody);
        if (body === undefined) return reply(422, { message: "Invalid request: body is required" });
        comment.body = body;
        return reply(200, comment);
      }
      if (method === "DELETE") {
        found.list.splice(found.index, 1);
        return reply(204, undefined);
      }
    }
    return reply(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const answer = handle(req, Buffer.concat(chunks).toString("utf8"));
      if (!options.hang) send(res, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${origin}${prefix}`,
    requests,
    comments: (issueNumber) => issueComments(issueNumber).map((c) => ({ ...c, user: { ...c.user } })),
    seedComments: (issueNumber, bodies, author = { login: "someone", type: "User" }) =>
      bodies.map((body) => addComment(issueNumber, "owner", "repo", body, author)),
    forbidWrites: (flag) => {
      writesForbidden = flag;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
