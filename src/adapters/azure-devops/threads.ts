/**
 * The pull request's comment on Azure DevOps: who the token is, the pull request threads endpoints as a
 * `CommentStore` for the host-neutral thread (`review-thread/thread.ts`), and whether a pull request is
 * still open. Facts and sources: docs/design/azure-devops.md.
 *
 * Azure DevOps keeps comments in threads. Ours is one thread holding one comment; each comment of every
 * thread is a `StoredComment` whose id encodes both (`thread id × 65,536 + comment id`: comment ids are
 * 16-bit), so ids still grow with creation and the oldest thread sorts first.
 */

import type { ReviewThread } from "../../core/ports.ts";
import { AZURE_DEVOPS_REVIEW } from "../../core/report/review-host.ts";
import type { Account, StoredComment } from "../../core/review-thread/own-comment.ts";
import type { PullRequestStates } from "../../core/review-thread/pull-request-state.ts";
import { type CommentStore, createReviewThread } from "../../core/review-thread/thread.ts";
import { MiB } from "../http/limits.ts";
import type { AnswerCap, HostClient, ReviewCommentOptions } from "../review-host/host-client.ts";
import { ReviewHostError, reviewHostCaps, tuningOf } from "../review-host/host-client.ts";
import { API_VERSION, createAzureDevOpsClient } from "./api.ts";
import type { AzureReposTarget } from "./context.ts";

/**
 * The largest answer of each kind of call. A comment holds at most 150,000 characters (6 bytes each at
 * worst as JSON escapes), so one thread or comment gets 4 MiB.
 */
export const AZURE_DEVOPS_ANSWER_CAPS = {
  ...reviewHostCaps({ identity: "the token's identity (connectionData)", page: "a page of threads" }),
  comment: { bytes: 4 * MiB, kind: "one thread or comment" },
  pullRequest: { bytes: 1 * MiB, kind: "a pull request" },
} as const satisfies Record<string, AnswerCap>;

/** Azure DevOps' one kind of account here: an identity, named by its GUID. */
const IDENTITY = "Identity";
const COMMENT_IDS = 65_536;
const MAX_CONTINUATION_TOKEN = 4 * 1024;

/** The identity the token acts as: `authenticatedUser.id` of `GET {collection}/_apis/connectionData`. */
export async function findTokenIdentity(client: HostClient): Promise<Account> {
  const { data } = await client.send({
    method: "GET",
    path: "/_apis/connectionData",
    cap: AZURE_DEVOPS_ANSWER_CAPS.identity,
  });
  const user = (data as { authenticatedUser?: unknown } | undefined)?.authenticatedUser;
  const id = typeof user === "object" && user !== null ? (user as { id?: unknown }).id : undefined;
  if (!isIdentityId(id)) {
    throw new ReviewHostError(
      "Azure DevOps GET /_apis/connectionData named no identity id for the token.",
      undefined,
      false,
    );
  }
  return { id: id.toLowerCase(), kind: IDENTITY };
}

/** The pull request in API paths, below the collection URI. */
export function pullRequestPath(target: AzureReposTarget, number: number): string {
  const project = encodeURIComponent(target.project);
  return `/${project}/_apis/git/repositories/${encodeURIComponent(target.repositoryId)}/pullRequests/${number}`;
}

/** The thread's place on the pull request's page. */
export function threadUrl(target: AzureReposTarget, number: number, threadId: number): string {
  const project = encodeURIComponent(target.projectName);
  const repository = encodeURIComponent(target.repositoryName);
  return `${target.collectionUri}/${project}/_git/${repository}/pullrequest/${number}?discussionId=${threadId}`;
}

/**
 * The threads of one pull request as a comment store: page 1 is the list, each further page follows
 * the `x-ms-continuationtoken` header the previous one answered (sent back as `continuationToken`). A
 * new comment is a new thread, created closed: it asks nobody to resolve it, so a "check for comment
 * resolution" policy never waits on it.
 */
export function azureThreadStore(client: HostClient, target: AzureReposTarget, number: number): CommentStore {
  const threads = `${pullRequestPath(target, number)}/threads`;
  const commentPath = (id: number) => {
    const { thread, comment } = splitId(id);
    return `${threads}/${thread}/comments/${comment}`;
  };
  const tokens = new Map<number, string>();
  const urlOf = (threadId: number) => threadUrl(target, number, threadId);
  const written = (comment: StoredComment | undefined, call: string): StoredComment => {
    if (!comment) throw new ReviewHostError(`Azure DevOps ${call} answered no comment.`, undefined, false);
    return comment;
  };
  return {
    async page(page) {
      const token = page === 1 ? undefined : tokens.get(page);
      if (page !== 1 && token === undefined)
        throw new Error(`No continuation token for page ${page} of threads.`);
      const answer = await client.send({
        method: "GET",
        path: threads,
        query: { ...API_VERSION, ...(token === undefined ? {} : { continuationToken: token }) },
        cap: AZURE_DEVOPS_ANSWER_CAPS.page,
      });
      const list = (answer.data as { value?: unknown } | undefined)?.value;
      if (!Array.isArray(list)) {
        throw new ReviewHostError(
          `Azure DevOps GET ${threads} did not answer a list of threads.`,
          answer.status,
          false,
        );
      }
      const next = answer.headers["x-ms-continuationtoken"]?.trim();
      if (next && (next.length > MAX_CONTINUATION_TOKEN || next === token)) {
        throw new ReviewHostError(
          `Azure DevOps GET ${threads} answered a continuation token that does not lead on; stopped listing.`,
          answer.status,
          false,
        );
      }
      if (next) tokens.set(page + 1, next);
      return {
        comments: list.flatMap((thread) => threadComments(thread, urlOf)),
        next: next ? page + 1 : undefined,
      };
    },
    async create(body) {
      const { data } = await client.send({
        method: "POST",
        path: threads,
        query: API_VERSION,
        body: { comments: [{ parentCommentId: 0, content: body, commentType: "text" }], status: "closed" },
        cap: AZURE_DEVOPS_ANSWER_CAPS.comment,
      });
      return written(threadComments(data, urlOf)[0], `POST ${threads}`);
    },
    async update(id, body) {
      const path = commentPath(id);
      const { data } = await client.send({
        method: "PATCH",
        path,
        query: API_VERSION,
        body: { content: body },
        cap: AZURE_DEVOPS_ANSWER_CAPS.comment,
      });
      const threadId = splitId(id).thread;
      return written(parseComment(threadId, data, urlOf), `PATCH ${path}`);
    },
    async remove(id) {
      try {
        await client.send({
          method: "DELETE",
          path: commentPath(id),
          query: API_VERSION,
          cap: AZURE_DEVOPS_ANSWER_CAPS.deletion,
        });
      } catch (error) {
        if (!(error instanceof ReviewHostError && error.status === 404)) throw error;
      }
    },
  };
}

/** The live comments of a thread, checked field by field; none for a deleted thread. */
function threadComments(value: unknown, urlOf: (threadId: number) => string): StoredComment[] {
  if (typeof value !== "object" || value === null) return [];
  const { id, comments, isDeleted } = value as { id?: unknown; comments?: unknown; isDeleted?: unknown };
  if (isDeleted === true || !isThreadId(id) || !Array.isArray(comments)) return [];
  return comments.flatMap((comment) => parseComment(id, comment, urlOf) ?? []);
}

/**
 * One comment; undefined for a deleted one (Azure DevOps still lists it, `isDeleted: true`), a system
 * message (`commentType: "system"`: votes, policy updates), or one without id or content.
 */
function parseComment(
  threadId: number,
  value: unknown,
  urlOf: (threadId: number) => string,
): StoredComment | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, content, author, isDeleted, commentType } = value as {
    id?: unknown;
    content?: unknown;
    author?: unknown;
    isDeleted?: unknown;
    commentType?: unknown;
  };
  if (isDeleted === true || commentType === "system" || commentType === 3) return undefined;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id >= COMMENT_IDS) return undefined;
  if (typeof content !== "string") return undefined;
  const authorId =
    typeof author === "object" && author !== null ? (author as { id?: unknown }).id : undefined;
  return {
    id: threadId * COMMENT_IDS + id,
    body: content,
    author: isIdentityId(authorId) ? { id: authorId.toLowerCase(), kind: IDENTITY } : undefined,
    url: urlOf(threadId),
  };
}

function splitId(id: number): { thread: number; comment: number } {
  return { thread: Math.floor(id / COMMENT_IDS), comment: id % COMMENT_IDS };
}

function isThreadId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value < 2 ** 31;
}

function isIdentityId(value: unknown): value is string {
  return (
    typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  );
}

export interface PullRequestThreadsOptions extends ReviewCommentOptions {
  target: AzureReposTarget;
  /** `SYSTEM_ACCESSTOKEN`; without it the comment is skipped with a warning. */
  token: string | undefined;
  /** The pull request's id, as its page shows it. */
  number: number;
}

const TOKEN_SETUP =
  "map it into the step with `env: { SYSTEM_ACCESSTOKEN: $(System.AccessToken) }`, and allow the " +
  'project\'s build service identity to "Contribute to pull requests" on the repository.';

/**
 * The pull request's one living comment, as the run sees it; undefined (with a warning) without
 * `SYSTEM_ACCESSTOKEN`. Failures to read or write it are warnings, never the run's failure.
 */
export function createPullRequestThreads(options: PullRequestThreadsOptions): ReviewThread | undefined {
  const { logger, number } = options;
  if (!options.token) {
    logger.warning(
      `No SYSTEM_ACCESSTOKEN variable: the pull request comment is skipped. Azure Pipelines gives a script the job's token only when asked: ${TOKEN_SETUP}`,
    );
    return undefined;
  }
  const client = clientOf(options, options.token);
  const where = `pull request !${number}`;
  const reason = (error: unknown) => client.redact(error instanceof Error ? error.message : String(error));
  return createReviewThread({
    store: azureThreadStore(client, options.target, number),
    identify: () => findTokenIdentity(client),
    key: options.commentKey,
    host: AZURE_DEVOPS_REVIEW,
    number,
    logger,
    words: {
      subject: `the comment on ${where}`,
      title: "Pull request comment",
      identityUnknown: (error) =>
        `Could not find which identity SYSTEM_ACCESSTOKEN acts as (GET _apis/connectionData: ${reason(error)}); ` +
        `the comment on ${where} is neither read nor written, since only a comment written by that identity is the tool's.` +
        tokenAdvice(error),
      advice: tokenAdvice,
      reason,
    },
  });
}

/** Whether pull requests of the repository are open: `status` "active" is open; "completed" and "abandoned" closed. */
export function azurePullRequestStates(
  options: Omit<PullRequestThreadsOptions, "number" | "commentKey" | "logger" | "token"> & { token: string },
): PullRequestStates {
  const client = clientOf(options, options.token);
  return {
    async state(number) {
      const path = pullRequestPath(options.target, number);
      const { data } = await client.send({
        method: "GET",
        path,
        query: API_VERSION,
        cap: AZURE_DEVOPS_ANSWER_CAPS.pullRequest,
      });
      const status = (data as { status?: unknown } | undefined)?.status;
      if (status === "active") return "open";
      if (status === "completed" || status === "abandoned") return "closed";
      throw new ReviewHostError(
        `Azure DevOps GET ${path} named no known status for the pull request (${client.redact(JSON.stringify(status ?? null)).slice(0, 40)}).`,
        undefined,
        false,
      );
    },
  };
}

function clientOf(
  options: Pick<
    PullRequestThreadsOptions,
    "target" | "deadline" | "requestTimeoutMs" | "retryDelayMs" | "dispatcher"
  >,
  token: string,
): HostClient {
  return createAzureDevOpsClient({
    collectionUri: options.target.collectionUri,
    token,
    deadline: options.deadline,
    ...tuningOf(options),
  });
}

function tokenAdvice(error: unknown): string {
  const status = error instanceof ReviewHostError ? error.status : undefined;
  if (status !== 401 && status !== 403 && status !== 203) return "";
  return ` SYSTEM_ACCESSTOKEN must be the job's own token: ${TOKEN_SETUP}`;
}
