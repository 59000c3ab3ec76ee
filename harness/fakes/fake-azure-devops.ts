/**
 * A fake of Azure DevOps' REST API (connection data, pull requests, pull request threads) on a loopback
 * socket, for tests that drive the real client (`SYSTEM_COLLECTIONURI=fake.collectionUri`).
 *
 * Implemented, below `collectionUri` (`http://127.0.0.1:<port>/<organization>`):
 * - `GET    /_apis/connectionData` — `{ authenticatedUser: { id, … }, authorizedUser, instanceId }` for the
 *   Bearer token's identity; `api-version` optional
 * - `GET    /{project}/_apis/git/repositories/{repo}/pullRequests/{id}` — `{ pullRequestId, status }`, 404
 *   for a pull request never declared with `setPullRequest`
 * - `GET    …/pullRequests/{id}/threads` — `{ count, value }`, threads oldest first, `pageSize` a page, the
 *   next page named by the `x-ms-continuationtoken` header and asked with `continuationToken=`
 * - `POST   …/pullRequests/{id}/threads` `{ comments: [{ content, parentCommentId, commentType }], status }`
 *   → 200 with the thread, its first comment id 1, written by the token's identity
 * - `PATCH  …/threads/{threadId}/comments/{commentId}` `{ content }` → 200 with the comment; 403 when the
 *   token's identity is not its author, 404 for an unknown or deleted one
 * - `DELETE …/threads/{threadId}/comments/{commentId}` → 200, empty; 403 and 404 as PATCH
 *
 * Quirks of the real service, as docs/design/azure-devops.md sources them:
 * - every route but connectionData answers 400 (`VssVersionNotSpecifiedException`) without `api-version`;
 * - a deleted comment stays listed, `isDeleted: true`, its content kept; a thread whose comments are all
 *   deleted is listed with `isDeleted: true`;
 * - threads of the service itself (votes, policy runs) hold comments of `commentType: "system"`;
 * - an unknown or missing token is answered 203 with an HTML sign-in page, unless the request carries
 *   `X-TFS-FedAuthRedirect: Suppress` (then 401); `signInPageAlways` answers 203 regardless;
 * - a comment longer than 150,000 characters is refused with 400;
 * - 429 with `Retry-After` through `fail({…}, { status: 429, retryAfter })`.
 * Every request is recorded in `requests`, with its origin and Authorization header.
 */
import type { FakeControls, RecordedRequestBase } from "./fake-server.ts";
import { bearerToken, recordOf, startFakeServer } from "./fake-server.ts";
import { listOf, parseJson, type Reply, reply, send } from "./http-reply.ts";

export type { FaultKind, FaultMatch } from "./http-reply.ts";

export interface FakeAzureIdentity {
  id: string;
  displayName: string;
}

export interface FakeAzureComment {
  id: number;
  parentCommentId: number;
  author: { id: string; displayName: string; uniqueName: string };
  content: string;
  commentType: "text" | "system" | "codeChange";
  isDeleted: boolean;
  publishedDate: string;
}

export interface FakeAzureThread {
  id: number;
  status: string;
  isDeleted: boolean;
  comments: FakeAzureComment[];
  properties: Record<string, unknown>;
}

/** A request received; `path` is below the collection: "/_apis/connectionData", "/proj/_apis/git/…". */
export interface RecordedAzureRequest extends RecordedRequestBase {
  /** The origin the request reached (always the fake's). */
  origin: string;
  query: URLSearchParams;
}

export interface FakeAzureDevOpsOptions {
  organization?: string;
  /** Known tokens and whom they act as. Default: {@link FAKE_AZURE_TOKEN} → {@link FAKE_AZURE_BUILD_SERVICE}. */
  tokens?: Record<string, FakeAzureIdentity>;
  /** Threads a page. Default 100. */
  pageSize?: number;
  /** Answer a bad token 203 with the sign-in page even when asked to suppress it. */
  signInPageAlways?: boolean;
}

export interface FakeAzureDevOps extends FakeControls {
  /** `SYSTEM_COLLECTIONURI`, with its trailing slash as Azure Pipelines writes it. */
  collectionUri: string;
  origin: string;
  requests: RecordedAzureRequest[];
  /** The threads of a pull request, oldest first (deep copies). */
  threads(pullRequest: number): FakeAzureThread[];
  /** Adds a thread with these comments (default author a stranger), as if written before the test. */
  seedThread(
    pullRequest: number,
    comments: {
      content: string;
      author?: FakeAzureIdentity;
      commentType?: FakeAzureComment["commentType"];
    }[],
  ): FakeAzureThread;
  /** Deletes a comment as its author would: it stays listed, `isDeleted: true`. */
  deleteComment(pullRequest: number, threadId: number, commentId: number): void;
  /** Declares a pull request and its status ("active", "completed", "abandoned"). */
  setPullRequest(pullRequest: number, status: string): void;
}

export const FAKE_AZURE_TOKEN = "azdo-job-token-7f3c2a91e0b84d56";
export const FAKE_AZURE_BUILD_SERVICE: FakeAzureIdentity = {
  id: "4f1c2b7e-9a3d-4e21-8b6f-0c5d7e8a9b10",
  displayName: "api Build Service (fabrikam)",
};
/** Another identity, named like a build service: its display name proves nothing. */
export const FAKE_AZURE_STRANGER: FakeAzureIdentity = {
  id: "0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d",
  displayName: "api Build Service (fabrikam)",
};
/** The service's own identity, author of system threads. */
export const FAKE_AZURE_SYSTEM: FakeAzureIdentity = {
  id: "00000002-0000-8888-8000-000000000000",
  displayName: "Microsoft.VisualStudio.Services.TFS",
};

const FIXED_TIME = "2026-01-01T00:00:00.000Z";
const COMMENT_LIMIT = 150_000;
const SIGN_IN_PAGE =
  '<!DOCTYPE html><html><head><title>Azure DevOps Services | Sign In</title></head><body><a href="https://app.vssps.visualstudio.com/_signin">Sign in</a></body></html>';

const PR_PATH = /^\/([^/]+)\/_apis\/git\/repositories\/([^/]+)\/pullRequests\/(\d+)$/;
const THREADS_PATH = /^\/([^/]+)\/_apis\/git\/repositories\/([^/]+)\/pullRequests\/(\d+)\/threads$/;
const COMMENT_PATH =
  /^\/([^/]+)\/_apis\/git\/repositories\/([^/]+)\/pullRequests\/(\d+)\/threads\/(\d+)\/comments\/(\d+)$/;

export async function startFakeAzureDevOps(options: FakeAzureDevOpsOptions = {}): Promise<FakeAzureDevOps> {
  const organization = options.organization ?? "fabrikam";
  const prefix = `/${organization}`;
  const tokens = options.tokens ?? { [FAKE_AZURE_TOKEN]: FAKE_AZURE_BUILD_SERVICE };
  const pageSize = options.pageSize ?? 100;
  const byPullRequest = new Map<number, FakeAzureThread[]>();
  const pullRequests = new Map<number, string>();
  let nextThreadId = 40;

  const prThreads = (id: number): FakeAzureThread[] => listOf(byPullRequest, id);
  const commentOf = (
    id: number,
    content: string,
    author: FakeAzureIdentity,
    commentType: FakeAzureComment["commentType"] = "text",
  ): FakeAzureComment => ({
    id,
    parentCommentId: id === 1 ? 0 : 1,
    author: { id: author.id, displayName: author.displayName, uniqueName: author.displayName },
    content,
    commentType,
    isDeleted: false,
    publishedDate: FIXED_TIME,
  });
  const addThread = (
    pullRequest: number,
    comments: { content: string; author: FakeAzureIdentity; commentType?: FakeAzureComment["commentType"] }[],
    status = "active",
  ): FakeAzureThread => {
    const thread: FakeAzureThread = {
      id: nextThreadId++,
      status,
      isDeleted: false,
      comments: comments.map((c, i) => commentOf(i + 1, c.content, c.author, c.commentType)),
      properties: {},
    };
    prThreads(pullRequest).push(thread);
    return thread;
  };

  const userOf = (record: RecordedAzureRequest): FakeAzureIdentity | undefined => {
    const token = bearerToken(record.authorization);
    return token === undefined ? undefined : tokens[token];
  };
  const inside = (pathname: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

  const handle = (record: RecordedAzureRequest, received: { url: URL }): Reply => {
    const { method, path, query } = record;
    // `refuse` has answered every request without a known token.
    const user = userOf(record) as FakeAzureIdentity;
    if (!inside(received.url.pathname)) return reply(404, { message: "Not found" });
    if (path === "/_apis/connectionData" && method === "GET") {
      const identity = {
        id: user.id,
        descriptor: `Microsoft.TeamFoundation.ServiceIdentity;${user.id}`,
        providerDisplayName: user.displayName,
      };
      return reply(200, {
        authenticatedUser: identity,
        authorizedUser: identity,
        instanceId: "a6c1e4f0-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
        locationServiceData: { serviceOwner: "00025394-6065-48ca-87d9-7f5672854ef7" },
      });
    }
    if (!query.get("api-version")) {
      return reply(400, {
        $id: "1",
        innerException: null,
        message: `No api-version was supplied for the "${method}" request. The version must be supplied either as part of the Accept header (e.g. "application/json; api-version=1.0") or as a query parameter (e.g. '?api-version=1.0').`,
        typeName:
          "Microsoft.VisualStudio.Services.WebApi.VssVersionNotSpecifiedException, Microsoft.VisualStudio.Services.WebApi",
        typeKey: "VssVersionNotSpecifiedException",
        errorCode: 0,
        eventId: 3000,
      });
    }
    const pr = PR_PATH.exec(path);
    if (pr && method === "GET") {
      const id = Number(pr[3]);
      const status = pullRequests.get(id);
      if (status === undefined) return reply(404, { message: `The requested pull request was not found.` });
      return reply(200, { pullRequestId: id, codeReviewId: id, status, title: `Pull request ${id}` });
    }
    const list = THREADS_PATH.exec(path);
    if (list) {
      const id = Number(list[3]);
      if (method === "GET") {
        const all = prThreads(id);
        const start = Number(
          query.get("continuationToken")
            ? Buffer.from(query.get("continuationToken") ?? "", "base64url").toString()
            : "0",
        );
        if (!Number.isSafeInteger(start) || start < 0)
          return reply(400, { message: "Invalid continuation token." });
        const value = all.slice(start, start + pageSize);
        const headers: Record<string, string> =
          start + pageSize < all.length
            ? { "x-ms-continuationtoken": Buffer.from(String(start + pageSize)).toString("base64url") }
            : {};
        return reply(200, { count: value.length, value }, headers);
      }
      if (method === "POST") {
        const parsed = parseJson(record.body) as
          | { comments?: { content?: unknown }[]; status?: unknown }
          | undefined;
        const first = parsed?.comments?.[0];
        if (typeof first?.content !== "string") return reply(400, { message: "A thread needs a comment." });
        if (first.content.length > COMMENT_LIMIT) return reply(400, tooLong());
        const status = typeof parsed?.status === "string" ? parsed.status : "active";
        return reply(200, addThread(id, [{ content: first.content, author: user }], status));
      }
    }
    const one = COMMENT_PATH.exec(path);
    if (one) {
      const thread = prThreads(Number(one[3])).find((t) => t.id === Number(one[4]));
      const comment = thread?.comments.find((c) => c.id === Number(one[5]));
      if (!thread || !comment || comment.isDeleted)
        return reply(404, { message: "The comment was not found." });
      if (method === "PATCH" || method === "DELETE") {
        if (comment.author.id !== user.id)
          return reply(403, { message: "You can only change your own comments." });
      }
      if (method === "PATCH") {
        const content = (parseJson(record.body) as { content?: unknown } | undefined)?.content;
        if (typeof content !== "string") return reply(400, { message: "The comment needs content." });
        if (content.length > COMMENT_LIMIT) return reply(400, tooLong());
        comment.content = content;
        return reply(200, comment);
      }
      if (method === "DELETE") {
        markDeleted(thread, comment);
        return reply(200, undefined);
      }
    }
    return reply(404, { message: `The resource ${path} cannot be found.` });
  };

  const server = await startFakeServer<RecordedAzureRequest>({
    record: (received) => ({
      ...recordOf(received, prefix),
      origin: received.origin,
      path: inside(received.url.pathname)
        ? received.url.pathname.slice(prefix.length)
        : received.url.pathname,
      query: received.url.searchParams,
    }),
    refuse: (record, res) => {
      if (userOf(record)) return false;
      const headers = res.req.headers;
      const suppressed = String(headers["x-tfs-fedauthredirect"] ?? "").toLowerCase() === "suppress";
      if (suppressed && !options.signInPageAlways) {
        send(res, reply(401, { message: "TF400813: The user is not authorized to access this resource." }));
      } else {
        res.writeHead(203, { "content-type": "text/html; charset=utf-8" }).end(SIGN_IN_PAGE);
      }
      return true;
    },
    handle,
  });

  return {
    collectionUri: `${server.origin}${prefix}/`,
    origin: server.origin,
    requests: server.requests,
    threads: (id) => structuredClone(prThreads(id)),
    seedThread: (id, comments) =>
      structuredClone(
        addThread(
          id,
          comments.map((c) => ({ ...c, author: c.author ?? FAKE_AZURE_STRANGER })),
        ),
      ),
    deleteComment: (id, threadId, commentId) => {
      const thread = prThreads(id).find((t) => t.id === threadId);
      const comment = thread?.comments.find((c) => c.id === commentId);
      if (!thread || !comment) throw new Error(`No comment ${commentId} in thread ${threadId}`);
      markDeleted(thread, comment);
    },
    setPullRequest: (id, status) => void pullRequests.set(id, status),
    fail: server.fail,
    hold: server.hold,
    close: server.close,
  };
}

function markDeleted(thread: FakeAzureThread, comment: FakeAzureComment): void {
  comment.isDeleted = true;
  thread.isDeleted = thread.comments.every((c) => c.isDeleted);
}

function tooLong() {
  return {
    message:
      "A discussion comment cannot be longer than 150000 characters.\r\nParameter name: comment.Content",
  };
}
