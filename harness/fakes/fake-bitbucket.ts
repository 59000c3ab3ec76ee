/**
 * A fake of Bitbucket Cloud's REST API 2.0 (pull request comments and pull requests) on a loopback
 * socket, for tests that drive the real client (`BITBUCKET_API_URL=fake.apiUrl`). Its quirks are the
 * documented ones (docs/design/bitbucket.md):
 * - `Authorization: Bearer <access token>`; each token acts as a bot account of its own. `GET /user`
 *   refuses access tokens (BCLOUD-23528) with 401 "Token is invalid or not supported for this endpoint."
 * - Lists answer `{ pagelen, size, page, values, next }`; `pagelen` is 10 by default and capped at
 *   `maxPagelen` (100 by default; Bitbucket lets an endpoint enforce less), `next` is an absolute URL
 *   absent on the last page. Comments are listed oldest first.
 * - A deleted comment stays listed, with `deleted: true` (site/master issue 10686).
 * - A pending (draft) comment is listed only to its author.
 * - Only a comment's author may edit it; PUT and DELETE by another answer 403; unknown ids 404.
 * - Errors are `{ "type": "error", "error": { "message": … } }`; a token without a write scope gets 403
 *   "Your credentials lack one or more required privilege scopes." on writes.
 * Routes, under `apiUrl` (".../2.0"):
 * - `GET/POST /repositories/{w}/{r}/pullrequests/{id}/comments`, `GET/PUT/DELETE …/comments/{cid}`
 * - `GET /repositories/{w}/{r}/pullrequests/{id}` → `{ id, state }` (see `setState`; unknown → 404)
 * Every request is recorded with the `Authorization` header it carried; `fail` and `hold` inject faults
 * (a 429, an answer lost after the comment was created, a dropped connection…).
 */
import type { FakeControls, Received, RecordedRequestBase } from "./fake-server.ts";
import { bearerToken, recordOf, startFakeServer } from "./fake-server.ts";
import { listOf, parseJson, type Reply, reply } from "./http-reply.ts";

export type { FaultKind, FaultMatch } from "./http-reply.ts";

export interface FakeBitbucketAccount {
  uuid: string;
  display_name: string;
  type: string;
}

export interface FakeBitbucketComment {
  type: "pullrequest_comment";
  id: number;
  created_on: string;
  updated_on: string;
  content: { type: "rendered"; raw: string; markup: "markdown"; html: string };
  user: FakeBitbucketAccount;
  deleted: boolean;
  pending: boolean;
  pullrequest: { type: "pullrequest"; id: number };
}

/** A request received; `path` is below "/2.0". */
export type RecordedBitbucketRequest = RecordedRequestBase;

export type PullRequestState = "OPEN" | "MERGED" | "DECLINED" | "SUPERSEDED";

export interface FakeBitbucketOptions {
  /** Known tokens and the bot account each acts as. Default: {@link FAKE_BITBUCKET_TOKEN} → {@link FAKE_BITBUCKET_BOT}. */
  tokens?: Record<string, FakeBitbucketAccount>;
  /** Tokens that may read but not write (no Pull requests: Write scope). */
  readOnlyTokens?: string[];
  /** The largest `pagelen` served; larger asks get this many. Default 100. */
  maxPagelen?: number;
  /** Rewrites every `next` address: a hostile Bitbucket pointing the client elsewhere. */
  nextUrl?: (href: string) => string;
}

export interface FakeBitbucket extends FakeControls {
  /** For `BITBUCKET_API_URL`, e.g. "http://127.0.0.1:41234/2.0". */
  apiUrl: string;
  requests: RecordedBitbucketRequest[];
  /** Every comment of a pull request, deleted and pending ones included, oldest first (copies). */
  comments(pullRequest: number): FakeBitbucketComment[];
  /** Comments by `author` (default {@link FAKE_BITBUCKET_STRANGER}), as if posted before the test. */
  seedComments(pullRequest: number, bodies: string[], author?: FakeBitbucketAccount): FakeBitbucketComment[];
  setState(pullRequest: number, state: PullRequestState): void;
}

export const FAKE_BITBUCKET_TOKEN = "ATCTT3xFfGN0Zq8vR2mW7kLp4sT9yB1cD6eH3jN5uX0aQ=7F3A9C21";
export const FAKE_BITBUCKET_BOT: FakeBitbucketAccount = {
  uuid: "{6b2f1c9e-0c1d-4a55-9f43-2f0d6a1b7c10}",
  display_name: "api repository token",
  type: "user",
};
export const FAKE_BITBUCKET_STRANGER: FakeBitbucketAccount = {
  uuid: "{0f5e8a71-3b2c-4d9e-8a61-7c3b2a1d0e9f}",
  display_name: "Someone",
  type: "user",
};

const FIXED_TIME = "2026-01-01T00:00:00.000000+00:00";
const PREFIX = "/2.0";

const error = (status: number, message: string): Reply =>
  reply(status, { type: "error", error: { message } });

export async function startFakeBitbucket(options: FakeBitbucketOptions = {}): Promise<FakeBitbucket> {
  const tokens = options.tokens ?? { [FAKE_BITBUCKET_TOKEN]: FAKE_BITBUCKET_BOT };
  const readOnly = new Set(options.readOnlyTokens ?? []);
  const maxPagelen = options.maxPagelen ?? 100;
  const byPullRequest = new Map<number, FakeBitbucketComment[]>();
  const states = new Map<number, PullRequestState>();
  let nextId = 700;

  const commentsOf = (pr: number) => listOf(byPullRequest, pr);
  const add = (pr: number, raw: string, user: FakeBitbucketAccount, pending = false) => {
    const comment: FakeBitbucketComment = {
      type: "pullrequest_comment",
      id: nextId++,
      created_on: FIXED_TIME,
      updated_on: FIXED_TIME,
      content: { type: "rendered", raw, markup: "markdown", html: "" },
      user: { ...user },
      deleted: false,
      pending,
      pullrequest: { type: "pullrequest", id: pr },
    };
    commentsOf(pr).push(comment);
    return comment;
  };
  const rawOf = (body: string): { raw: string | undefined; pending: boolean } => {
    const value = parseJson(body) as { content?: { raw?: unknown }; pending?: unknown } | null | undefined;
    const raw = value?.content?.raw;
    return {
      raw: typeof raw === "string" && raw !== "" ? raw : undefined,
      pending: value?.pending === true,
    };
  };

  const handle = (record: RecordedBitbucketRequest, { url, origin }: Received): Reply => {
    const { method, path } = record;
    if (!url.pathname.startsWith(`${PREFIX}/`)) return error(404, "Resource not found");
    const token = bearerToken(record.authorization);
    const user = token === undefined ? undefined : tokens[token];
    if (path === "/user") return error(401, "Token is invalid or not supported for this endpoint.");
    if (!user) return error(401, "Access token expired or invalid.");
    const writes = method !== "GET";
    if (writes && token !== undefined && readOnly.has(token)) {
      return error(403, "Your credentials lack one or more required privilege scopes.");
    }
    const pr = /^\/repositories\/[^/]+\/[^/]+\/pullrequests\/(\d+)$/.exec(path);
    if (pr && method === "GET") {
      const state = states.get(Number(pr[1]));
      return state
        ? reply(200, { type: "pullrequest", id: Number(pr[1]), state })
        : error(404, "Pull request not found");
    }
    const list = /^\/repositories\/[^/]+\/[^/]+\/pullrequests\/(\d+)\/comments$/.exec(path);
    if (list) {
      const number = Number(list[1]);
      if (method === "GET") {
        const visible = commentsOf(number).filter((c) => !c.pending || c.user.uuid === user.uuid);
        return page(url, visible, maxPagelen, origin, options.nextUrl);
      }
      if (method === "POST") {
        const { raw, pending } = rawOf(record.body);
        if (raw === undefined) return error(400, "content.raw: This field is required.");
        return reply(201, add(number, raw, user, pending));
      }
    }
    const one = /^\/repositories\/[^/]+\/[^/]+\/pullrequests\/(\d+)\/comments\/(\d+)$/.exec(path);
    if (one) {
      const comment = commentsOf(Number(one[1])).find((c) => c.id === Number(one[2]));
      if (!comment || comment.deleted) return error(404, "Comment not found");
      if (method === "GET") return reply(200, comment);
      if (comment.user.uuid !== user.uuid) return error(403, "You are not allowed to change this comment.");
      if (method === "PUT") {
        const { raw } = rawOf(record.body);
        if (raw === undefined) return error(400, "content.raw: This field is required.");
        comment.content.raw = raw;
        return reply(200, comment);
      }
      if (method === "DELETE") {
        comment.deleted = true;
        comment.content.raw = "";
        return reply(204, undefined);
      }
    }
    return error(404, "Resource not found");
  };

  const server = await startFakeServer<RecordedBitbucketRequest>({
    record: (received) => recordOf(received, PREFIX),
    handle,
  });

  return {
    apiUrl: `${server.origin}${PREFIX}`,
    requests: server.requests,
    comments: (pr) => commentsOf(pr).map((c) => ({ ...c, content: { ...c.content }, user: { ...c.user } })),
    seedComments: (pr, bodies, author = FAKE_BITBUCKET_STRANGER) =>
      bodies.map((body) => add(pr, body, author)),
    setState: (pr, state) => void states.set(pr, state),
    fail: server.fail,
    hold: server.hold,
    close: server.close,
  };
}

/** One page of `all`, as Bitbucket pages: `page` and `pagelen` from the query, `next` an absolute URL. */
function page(
  url: URL,
  all: FakeBitbucketComment[],
  maxPagelen: number,
  origin: string,
  rewrite: (href: string) => string = (href) => href,
): Reply {
  const asked = Number(url.searchParams.get("pagelen") ?? 10);
  const pagelen = Math.min(Math.max(Number.isSafeInteger(asked) ? asked : 10, 1), maxPagelen);
  const number = Math.max(Number(url.searchParams.get("page") ?? 1) || 1, 1);
  const values = all.slice((number - 1) * pagelen, number * pagelen);
  const body: Record<string, unknown> = { pagelen, size: all.length, page: number, values };
  if (number * pagelen < all.length) {
    const next = new URL(url.pathname + url.search, origin);
    next.searchParams.set("pagelen", String(pagelen));
    next.searchParams.set("page", String(number + 1));
    body.next = rewrite(next.href);
  }
  return reply(200, body);
}
