/**
 * A fake of the GitHub REST API's issue-comment endpoints and GraphQL's `viewer` on a loopback socket,
 * for tests that drive the comment client (`createGitHubClient(token, fake.apiUrl, …)`) or the whole
 * action (`GITHUB_API_URL=fake.apiUrl`).
 *
 * Implemented, under `apiUrl` (which carries `pathPrefix`, for example "/api/v3" as on GHES):
 * - `GET    /repos/{owner}/{repo}/issues/{number}/comments?per_page=&page=` — oldest first, `per_page`
 *   30 by default and at most 100, with a `Link` header (rel="next", "prev", "first", "last") like GitHub's
 * - `POST   /repos/{owner}/{repo}/issues/{number}/comments` `{ body }` → 201
 * - `GET    /repos/{owner}/{repo}/issues/comments/{id}`
 * - `PATCH  /repos/{owner}/{repo}/issues/comments/{id}` `{ body }` → 200, 404 for an unknown id
 * - `DELETE /repos/{owner}/{repo}/issues/comments/{id}` → 204, 404 for an unknown id
 * - `POST   /graphql` (on GHES `/api/graphql`) answering a `viewer` query with `login`, `databaseId` and
 *   `__typename` of the token's account (`viewer`)
 * Comments created through the API are written by the token's account. Every account has an id of its
 * own, as on GitHub: a seeded `{ login: "github-actions[bot]", type: "Bot" }` is the default token's bot
 * (id 41898282), while a user that merely took the login `github-actions` is another account. Everything
 * else answers 404 `{"message":"Not Found"}`. Every request is recorded in `requests`. Comments are kept
 * per issue number (the repository in the path is not checked).
 */
import type { FakeControls, Received, RecordedRequestBase } from "./fake-server.ts";
import { pageAsked, recordOf, startFakeServer } from "./fake-server.ts";
import { bodyField, listOf, type Reply, reply } from "./http-reply.ts";

export type { FaultKind, FaultMatch } from "./http-reply.ts";

/** A request received; `path` is below `pathPrefix`, for example "/repos/o/r/issues/7/comments". */
export type RecordedRequest = RecordedRequestBase;

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string; id: number; type: "User" | "Bot" };
  created_at: string;
  updated_at: string;
}

/** An account: who wrote a comment, or whom the token acts as. */
export interface FakeAuthor {
  login: string;
  type: "User" | "Bot";
  /** Default: the id the fake gives this login and type (the same each time). */
  id?: number;
}

/** What a workflow's `GITHUB_TOKEN` acts as: the GitHub Actions app's bot. */
export const GITHUB_ACTIONS_BOT = { login: "github-actions[bot]", id: 41898282, type: "Bot" } as const;

export interface FakeGitHubOptions {
  /** Prepended to every route, as GitHub Enterprise Server's "/api/v3". Default "". */
  pathPrefix?: string;
  /** Answer 403 to every POST, PATCH and DELETE from the start (see `forbidWrites`). */
  forbidWrites?: boolean;
  /** The token's account. Default {@link GITHUB_ACTIONS_BOT} (a workflow's token). */
  viewer?: FakeAuthor;
  /**
   * What GraphQL says `viewer.__typename` is. Default "User": the schema types `viewer` as `User`, so a
   * bot's viewer need not say "Bot".
   */
  viewerTypename?: string;
  /** Accept every connection and never answer: a GitHub that hangs. */
  hang?: boolean;
}

export interface FakeGitHub extends FakeControls {
  /** Base URL to give the client, for example "http://127.0.0.1:41234" or ".../api/v3". */
  apiUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The comments of an issue, oldest first (copies). */
  comments(issueNumber: number): FakeComment[];
  /** Adds comments written by `author` (default a user "someone"), as if posted before the test. */
  seedComments(issueNumber: number, bodies: string[], author?: FakeAuthor): FakeComment[];
  /** While true, writes answer 403 "Resource not accessible by integration". */
  forbidWrites(flag: boolean): void;
}

const FIXED_TIME = "2026-01-01T00:00:00Z";

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const prefix = (options.pathPrefix ?? "").replace(/\/+$/, "");
  const byIssue = new Map<number, FakeComment[]>();
  let writesForbidden = options.forbidWrites ?? false;
  let nextId = 1000;

  // Account ids by type and login, as GitHub's: one account per login, ids never shared.
  const accounts = new Map<string, number>([[`Bot:${GITHUB_ACTIONS_BOT.login}`, GITHUB_ACTIONS_BOT.id]]);
  let nextAccountId = 500_000;
  const account = (author: FakeAuthor): FakeComment["user"] => {
    const key = `${author.type}:${author.login}`;
    let id = author.id ?? accounts.get(key);
    if (id === undefined) {
      id = nextAccountId++;
      accounts.set(key, id);
    }
    return { login: author.login, id, type: author.type };
  };
  const viewer = account(options.viewer ?? GITHUB_ACTIONS_BOT);

  const issueComments = (issue: number): FakeComment[] => listOf(byIssue, issue);
  const addComment = (
    issue: number,
    owner: string,
    repo: string,
    body: string,
    user: FakeComment["user"],
  ) => {
    const id = nextId++;
    const comment: FakeComment = {
      id,
      body,
      html_url: `https://github.example/${owner}/${repo}/pull/${issue}#issuecomment-${id}`,
      user: { ...user },
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

  const handle = (record: RecordedRequest, { url }: Received): Reply => {
    const { method, path, body: rawBody } = record;
    if (method === "POST" && (url.pathname === "/graphql" || url.pathname === "/api/graphql")) {
      return /\bviewer\s*\{[^}]*\blogin\b/.test(rawBody)
        ? reply(200, {
            data: {
              viewer: {
                login: viewer.login,
                databaseId: viewer.id,
                __typename: options.viewerTypename ?? "User",
              },
            },
          })
        : reply(200, {
            errors: [{ message: "This fake only answers viewer { login databaseId __typename }" }],
          });
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
        const { perPage, page, pageUrl } = pageAsked(url, 30);
        const all = issueComments(issue);
        const last = Math.max(Math.ceil(all.length / perPage), 1);
        const links: string[] = [];
        if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
        if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`, `<${pageUrl(1)}>; rel="first"`);
        const headers: Record<string, string> = links.length > 0 ? { link: links.join(", ") } : {};
        return reply(200, all.slice((page - 1) * perPage, page * perPage), headers);
      }
      if (method === "POST") {
        const body = bodyField(rawBody);
        if (body === undefined) return reply(422, { message: "Invalid request: body is required" });
        return reply(201, addComment(issue, owner, repo, body, viewer));
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

  const server = await startFakeServer<RecordedRequest>({
    record: (received) => recordOf(received, prefix),
    handle,
    ...(options.hang ? { hang: true } : {}),
  });

  return {
    apiUrl: `${server.origin}${prefix}`,
    requests: server.requests,
    comments: (issueNumber) => issueComments(issueNumber).map((c) => ({ ...c, user: { ...c.user } })),
    seedComments: (issueNumber, bodies, author = { login: "someone", type: "User" }) =>
      bodies.map((body) => addComment(issueNumber, "owner", "repo", body, account(author))),
    forbidWrites: (flag) => {
      writesForbidden = flag;
    },
    fail: server.fail,
    hold: server.hold,
    close: server.close,
  };
}
