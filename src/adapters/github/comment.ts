/**
 * The pull request's comment on GitHub: who the token is (GraphQL `viewer`), and the issue-comment
 * endpoints as a `CommentStore` for the host-neutral thread (../../core/review-thread/thread.ts). The
 * facts it relies on, with their sources: docs/design/review-comment.md, "Whose comment is ours".
 */

import type { Logger } from "../../core/logger.ts";
import type { ReviewThread } from "../../core/ports.ts";
import { GITHUB_REVIEW } from "../../core/report/review-host.ts";
import type { Account, StoredComment } from "../../core/review-thread/own-comment.ts";
import { type CommentStore, createReviewThread } from "../../core/review-thread/thread.ts";
import { MiB } from "../http/limits.ts";
import { type AnswerCap, ReviewHostError, reviewHostCaps } from "../review-host/host-client.ts";
import { restCommentStore } from "../review-host/rest-comment-store.ts";
import type { GitHubClient } from "./api.ts";

export { type CommentState, commentMarker, readCommentState, sanitizeCommentKey } from "./comment-marker.ts";

/** The largest answer of each kind of GitHub call. A comment holds at most 65,536 characters. */
export const GITHUB_ANSWER_CAPS = {
  ...reviewHostCaps({ identity: "the token's identity (GraphQL viewer)", page: "a page of comments" }),
  comment: { bytes: 1 * MiB, kind: "one comment" },
} as const satisfies Record<string, AnswerCap>;

/** The account the token acts as. */
export interface TokenIdentity extends Account {
  login: string;
}

export const VIEWER_QUERY = "query { viewer { login databaseId __typename } }";

/** The token's own account, from GraphQL's `viewer`; throws when GitHub names no account id. */
export async function findTokenIdentity(client: GitHubClient): Promise<TokenIdentity> {
  const { data } = await client.graphql.send({
    method: "POST",
    path: "",
    body: { query: VIEWER_QUERY },
    cap: GITHUB_ANSWER_CAPS.identity,
    idempotent: true,
  });
  const answer = (data ?? {}) as { data?: { viewer?: unknown }; errors?: unknown };
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const messages = answer.errors.map((e) => String((e as { message?: unknown })?.message ?? "")).join("; ");
    throw new ReviewHostError(
      `GitHub's GraphQL API refused the viewer query: ${client.graphql.redact(messages)}`,
      undefined,
      false,
    );
  }
  const viewer = (answer.data?.viewer ?? {}) as {
    login?: unknown;
    databaseId?: unknown;
    __typename?: unknown;
  };
  const { login, databaseId } = viewer;
  if (typeof login !== "string" || login === "" || !isAccountId(databaseId)) {
    throw new ReviewHostError(
      "GitHub's GraphQL API named no viewer login and account id (databaseId) for the token.",
      undefined,
      false,
    );
  }
  const kind = viewer.__typename === "Bot" || /\[bot\]$/i.test(login) ? "Bot" : "User";
  return { login, id: databaseId, kind };
}

/** The pull request (or issue) whose comments these are. */
export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

/**
 * The issue-comment endpoints of one pull request, which a workflow's `GITHUB_TOKEN` may use with
 * `pull-requests: write`. Comments are listed 100 a page, oldest first, following the `Link` header.
 */
export function githubCommentStore(client: GitHubClient, target: CommentTarget): CommentStore {
  const repo = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  const list = `${repo}/issues/${target.issueNumber}/comments`;
  const one = (id: number) => `${repo}/issues/comments/${id}`;
  return restCommentStore({
    client: client.rest,
    host: "GitHub",
    noun: "comment",
    list,
    one,
    // The first page is asked for without `page`, as GitHub's own `Link` header leaves it out.
    pageQuery: (number): Record<string, number> =>
      number > 1 ? { per_page: 100, page: number } : { per_page: 100 },
    updateMethod: "PATCH",
    caps: GITHUB_ANSWER_CAPS,
    parse: parseComment,
  });
}

/** A REST issue comment, checked field by field; undefined when it has no id or body. */
export function parseComment(value: unknown): StoredComment | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, body, html_url, user } = value as {
    id?: unknown;
    body?: unknown;
    html_url?: unknown;
    user?: unknown;
  };
  if (!isAccountId(id) || typeof body !== "string") return undefined;
  let author: Account | undefined;
  if (typeof user === "object" && user !== null) {
    const { id: userId, type } = user as { id?: unknown; type?: unknown };
    if (isAccountId(userId) && typeof type === "string") author = { id: userId, kind: type };
  }
  return { id, body, author, url: typeof html_url === "string" ? html_url : "" };
}

function isAccountId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

export interface PullRequestThreadOptions {
  client: GitHubClient;
  target: CommentTarget;
  /** The `comment-key` input. */
  key: string;
  logger: Logger;
}

/** The pull request's one living comment, as the sync core's review port. */
export function pullRequestThread(options: PullRequestThreadOptions): ReviewThread {
  const { client } = options;
  const reason = (error: unknown) =>
    client.rest.redact(error instanceof Error ? error.message : String(error));
  return createReviewThread({
    store: githubCommentStore(client, options.target),
    identify: () => findTokenIdentity(client),
    key: options.key,
    host: GITHUB_REVIEW,
    number: options.target.issueNumber,
    logger: options.logger,
    words: {
      subject: "the pull request comment",
      title: "Pull request comment",
      identityUnknown: (error) =>
        `Could not find which GitHub identity the 'github-token' acts as (GraphQL viewer query: ${reason(error)}); ` +
        "the pull request comment is neither read nor written, since only a comment written by that identity is the action's.",
      advice: (error) =>
        error instanceof ReviewHostError && error.status === 403
          ? " Give the workflow job `permissions: pull-requests: write` (or `issues: write`); pull requests from forks only get a read-only token."
          : "",
      reason,
    },
  });
}
