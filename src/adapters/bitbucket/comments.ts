/**
 * The pull request's comment on Bitbucket Cloud: the token's account, the comments endpoints as a
 * `CommentStore` for the host-neutral thread (`review-thread/thread.ts`), and whether a pull request is
 * closed, for the cleanup sweep. Facts and sources: docs/design/bitbucket.md.
 *
 * Bitbucket refuses `GET /2.0/user` to repository, project and workspace access tokens (BCLOUD-23528),
 * and every such token acts as a bot account of its own. The token's account is therefore read from
 * the one answer that must name it: the comment it has just created. The run posts a pending (draft)
 * probe comment, takes the `user` of the answer, and deletes the probe. A comment is then ours only
 * when it carries our marker and that account wrote it.
 */
import type { Logger } from "../../core/logger.ts";
import type { ReviewComments } from "../../core/report/review-comment.ts";
import { BITBUCKET_REVIEW } from "../../core/report/review-host.ts";
import type { Account, StoredComment } from "../../core/review-thread/own-comment.ts";
import type { PullRequestStates } from "../../core/review-thread/pull-request-state.ts";
import { type CommentStore, createReviewThread } from "../../core/review-thread/thread.ts";
import { MiB } from "../http/limits.ts";
import type {
  AnswerCap,
  HostClient,
  HostClientTuning,
  ReviewCommentOptions,
} from "../review-host/host-client.ts";
import { createHostClient, ReviewHostError, reviewHostCaps, tuningOf } from "../review-host/host-client.ts";
import { restCommentStore } from "../review-host/rest-comment-store.ts";
import { BITBUCKET_WEB_URL, type BitbucketContext } from "./context.ts";

/** The largest answer of each kind of call. A pull request's description may be megabytes long. */
export const BITBUCKET_ANSWER_CAPS = {
  ...reviewHostCaps({ identity: "the token's identity (a draft comment)", page: "a page of comments" }),
  comment: { bytes: 1 * MiB, kind: "one comment" },
  pullRequest: { bytes: 8 * MiB, kind: "a pull request" },
} as const satisfies Record<string, AnswerCap>;

/** The probe's text: says what it is to anyone who sees it before it is deleted. */
export const IDENTITY_PROBE =
  "gitbook-openapi: finding which account this token acts as (a draft, deleted at once).";

export interface BitbucketClientOptions extends HostClientTuning {
  apiUrl: string;
  /** Sent as a Bearer token, to `apiUrl`'s origin only; never written into a message. */
  token: string;
  deadline: number;
}

/** Bitbucket Cloud's REST API 2.0 on one access token. */
export function createBitbucketClient(options: BitbucketClientOptions): HostClient {
  const { apiUrl, token, ...rest } = options;
  return createHostClient({
    host: "Bitbucket",
    baseUrl: apiUrl,
    headers: { authorization: `Bearer ${token}` },
    secrets: [token],
    ...rest,
  });
}

/** The pull request whose comments these are. */
export interface PullRequestTarget {
  workspace: string;
  repoSlug: string;
  id: number;
}

function repositoryPath(target: Pick<PullRequestTarget, "workspace" | "repoSlug">): string {
  return `/repositories/${encodeURIComponent(target.workspace)}/${encodeURIComponent(target.repoSlug)}`;
}

function commentsPath(target: PullRequestTarget): string {
  return `${repositoryPath(target)}/pullrequests/${target.id}/comments`;
}

/** The comment's page on bitbucket.org. */
export function commentUrl(target: PullRequestTarget, commentId: number): string {
  return `${BITBUCKET_WEB_URL}/${target.workspace}/${target.repoSlug}/pull-requests/${target.id}#comment-${commentId}`;
}

/**
 * The comments endpoints of one pull request: oldest first (Bitbucket's default order), 100 a page
 * asked for, following each page's `next` (Bitbucket may give fewer a page than asked).
 */
export function bitbucketCommentStore(client: HostClient, target: PullRequestTarget): CommentStore {
  return restCommentStore({
    client,
    host: "Bitbucket",
    noun: "comment",
    list: commentsPath(target),
    pageQuery: () => ({ pagelen: 100 }),
    updateMethod: "PUT",
    payload: (body) => ({ content: { raw: body } }),
    pages: "values",
    caps: BITBUCKET_ANSWER_CAPS,
    parse: (value) => parseComment(value, target),
  });
}

/**
 * A comment checked field by field; undefined for a deleted one (Bitbucket lists those, marked
 * `deleted: true`), a pending draft, or one without id or text.
 */
function parseComment(value: unknown, target: PullRequestTarget): StoredComment | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, content, user, deleted, pending } = value as Record<string, unknown>;
  if (deleted === true || pending === true || !isCommentId(id)) return undefined;
  const raw =
    typeof content === "object" && content !== null ? (content as { raw?: unknown }).raw : undefined;
  if (typeof raw !== "string") return undefined;
  return { id, body: raw, author: accountOf(user), url: commentUrl(target, id) };
}

/** An account as Bitbucket names it: its UUID, and its `type` as the kind. */
function accountOf(user: unknown): Account | undefined {
  if (typeof user !== "object" || user === null) return undefined;
  const { uuid, type } = user as { uuid?: unknown; type?: unknown };
  if (typeof uuid !== "string" || !/^\{[0-9A-Za-z-]{1,64}\}$/.test(uuid)) return undefined;
  return { id: uuid, kind: typeof type === "string" ? type : "" };
}

function isCommentId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/**
 * The account the token acts as: the author of a pending probe comment it creates, which is deleted
 * right after. Throws when the answer names no author; a probe whose answer was lost is not sent again.
 */
export async function findTokenAccount(
  client: HostClient,
  target: PullRequestTarget,
  logger: Logger,
): Promise<Account> {
  const list = commentsPath(target);
  const { data } = await client.send({
    method: "POST",
    path: list,
    body: { content: { raw: IDENTITY_PROBE }, pending: true },
    cap: BITBUCKET_ANSWER_CAPS.identity,
  });
  const { id, user } = (data ?? {}) as { id?: unknown; user?: unknown };
  const account = accountOf(user);
  if (isCommentId(id)) {
    try {
      await client.send({ method: "DELETE", path: `${list}/${id}`, cap: BITBUCKET_ANSWER_CAPS.deletion });
    } catch (error) {
      if (!(error instanceof ReviewHostError && error.status === 404)) {
        logger.warning(
          `Could not delete the draft comment ${id} that told which account BITBUCKET_TOKEN acts as: ${client.redact(error instanceof Error ? error.message : String(error))}`,
        );
      }
    }
  }
  if (!account) {
    throw new ReviewHostError(
      `Bitbucket POST ${list} named no author (user.uuid) for the comment the token created.`,
      undefined,
      false,
    );
  }
  return account;
}

export interface PullRequestCommentsOptions extends ReviewCommentOptions {
  context: Pick<BitbucketContext, "apiUrl" | "workspace" | "repoSlug" | "token">;
  pullRequestId: number;
}

/**
 * The pull request's one living comment, as the run sees it: the port GitHub's and GitLab's share.
 * Undefined (with a warning) without `BITBUCKET_TOKEN`. Failures are warnings, never the run's failure.
 */
export function createBitbucketComments(options: PullRequestCommentsOptions): ReviewComments | undefined {
  const { context, logger } = options;
  if (!context.token) {
    logger.warning(
      `No BITBUCKET_TOKEN variable: the comment on pull request #${options.pullRequestId} is skipped. ${TOKEN_SETUP}`,
    );
    return undefined;
  }
  const client = clientOf(options, context.token);
  const target = { workspace: context.workspace, repoSlug: context.repoSlug, id: options.pullRequestId };
  const where = `pull request #${target.id}`;
  const reason = (error: unknown) => client.redact(error instanceof Error ? error.message : String(error));
  return createReviewThread({
    store: bitbucketCommentStore(client, target),
    identify: () => findTokenAccount(client, target, logger),
    key: options.commentKey,
    host: BITBUCKET_REVIEW,
    number: target.id,
    logger,
    words: {
      subject: `the comment on ${where}`,
      title: "Pull request comment",
      identityUnknown: (error) =>
        `Could not find which Bitbucket account BITBUCKET_TOKEN acts as (a draft comment's author: ${reason(error)}); ` +
        `the comment on ${where} is neither read nor written, since only a comment written by that account is the run's.` +
        tokenAdvice(error),
      advice: tokenAdvice,
      reason,
    },
  });
}

/** Whether each pull request of the repository is open, from `GET …/pullrequests/{id}`'s `state`. */
export function bitbucketPullRequestStates(
  options: Omit<PullRequestCommentsOptions, "pullRequestId" | "commentKey" | "logger"> & { token: string },
): PullRequestStates {
  const { context } = options;
  const client = clientOf(options, options.token);
  return {
    async state(number) {
      const path = `${repositoryPath(context)}/pullrequests/${number}`;
      const { data } = await client.send({ method: "GET", path, cap: BITBUCKET_ANSWER_CAPS.pullRequest });
      const state = (data as { state?: unknown } | undefined)?.state;
      if (state === "OPEN") return "open";
      if (state === "MERGED" || state === "DECLINED" || state === "SUPERSEDED") return "closed";
      throw new ReviewHostError(
        `Bitbucket GET ${path} answered no known state (${JSON.stringify(typeof state === "string" ? state.slice(0, 40) : (state ?? null))}).`,
        undefined,
        false,
      );
    },
  };
}

function clientOf(
  options: Omit<PullRequestCommentsOptions, "pullRequestId" | "commentKey" | "logger">,
  token: string,
) {
  return createBitbucketClient({
    apiUrl: options.context.apiUrl,
    token,
    deadline: options.deadline,
    ...tuningOf(options),
  });
}

const TOKEN_SETUP =
  "Create a repository access token with the Pull requests: Write scope and store it as a secured repository variable BITBUCKET_TOKEN.";

function tokenAdvice(error: unknown): string {
  const status = error instanceof ReviewHostError ? error.status : undefined;
  if (status !== 401 && status !== 403) return "";
  return ` BITBUCKET_TOKEN must be a repository (or project, workspace) access token with the Pull requests: Write scope, not expired or revoked.`;
}
