import { commentMarker } from "./comment-marker.ts";
import type { GitHubClient } from "./octokit.ts";

export { type CommentState, commentMarker, readCommentState, sanitizeCommentKey } from "./comment-marker.ts";

/** Which pull request (or issue) and which action instance's comment. */
export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The `comment-key` input; sanitized here. */
  key: string;
  /** The login of the token's own identity ({@link findTokenLogin}): only its comments are ours. */
  author: string;
}

/**
 * The login of the identity the token acts as, from GraphQL's `viewer` (a workflow's `GITHUB_TOKEN` may
 * not call REST `GET /user`, but may ask GraphQL; so may app and personal tokens, on GHES too).
 */
export async function findTokenLogin(octokit: GitHubClient): Promise<string> {
  const answer = await octokit.graphql<{ viewer?: { login?: unknown } }>("query { viewer { login } }");
  const login = answer?.viewer?.login;
  if (typeof login !== "string" || login === "") {
    throw new GitHubCommentError("GitHub's GraphQL API named no viewer login for the token.", undefined);
  }
  return login;
}

/**
 * Whether a comment's author is the token's identity. GraphQL names an app's bot `github-actions` where
 * REST logins say `github-actions[bot]`: both forms match, in any case.
 */
export function isSameLogin(commentAuthor: string | undefined, tokenLogin: string): boolean {
  if (!commentAuthor) return false;
  const plain = (login: string) => login.toLowerCase().replace(/\[bot\]$/, "");
  return plain(commentAuthor) === plain(tokenLogin);
}

export interface FoundComment {
  id: number;
  body: string;
  url: string;
}

export type UpsertResult =
  | { action: "created" | "updated" | "unchanged"; url: string; id: number }
  /** The token may not write comments (no `pull-requests: write`, or a fork's read-only token). */
  | { action: "forbidden"; message: string };

/** A GitHub API call about the comment failed for another reason than a missing permission. */
export class GitHubCommentError extends Error {
  override readonly name = "GitHubCommentError";
  /** The HTTP status, when GitHub answered. */
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/**
 * The first comment on the issue written by the token's identity whose body contains this instance's
 * marker; anyone else's comment is never ours, whatever it contains. Pages through every comment (100 a
 * page) with the issue-comments endpoint, which a workflow's `GITHUB_TOKEN` may read.
 */
export async function findOwnComment(
  octokit: GitHubClient,
  target: CommentTarget,
): Promise<FoundComment | undefined> {
  const marker = commentMarker(target.key);
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const comment of page.data) {
      if (comment.body?.includes(marker) && isSameLogin(comment.user?.login, target.author)) {
        return { id: comment.id, body: comment.body, url: comment.html_url };
      }
    }
  }
  return undefined;
}

/**
 * Creates this instance's comment on the first run and edits it in place afterwards; leaves it alone
 * when `body` is what it already says. A 403 is returned as `forbidden` for the caller to warn about.
 */
export async function upsertOwnComment(
  octokit: GitHubClient,
  target: CommentTarget & { body: string },
): Promise<UpsertResult> {
  let existing: FoundComment | undefined;
  try {
    existing = await findOwnComment(octokit, target);
  } catch (error) {
    return handle(error, `list the comments of ${describeTarget(target)}`);
  }
  return writeOwnComment(octokit, target, existing);
}

/**
 * {@link upsertOwnComment} for a caller that has already looked for the comment (`existing`, undefined
 * when there is none), so that the comments are not paged through twice.
 */
export async function writeOwnComment(
  octokit: GitHubClient,
  target: CommentTarget & { body: string },
  existing: FoundComment | undefined,
): Promise<UpsertResult> {
  const where = describeTarget(target);
  if (existing && existing.body === target.body) {
    return { action: "unchanged", url: existing.url, id: existing.id };
  }
  if (existing) {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner: target.owner,
        repo: target.repo,
        comment_id: existing.id,
        body: target.body,
      });
      return { action: "updated", url: data.html_url, id: data.id };
    } catch (error) {
      return handle(error, `update comment ${existing.id} on ${where}`);
    }
  }
  // Another run on the same pull request may have created it since it was looked for.
  let createdMeanwhile: FoundComment | undefined;
  try {
    createdMeanwhile = await findOwnComment(octokit, target);
  } catch (error) {
    return handle(error, `list the comments of ${where}`);
  }
  if (createdMeanwhile) return writeOwnComment(octokit, target, createdMeanwhile);
  try {
    const { data } = await octokit.rest.issues.createComment({
      owner: target.owner,
      repo: target.repo,
      issue_number: target.issueNumber,
      body: target.body,
    });
    return { action: "created", url: data.html_url, id: data.id };
  } catch (error) {
    return handle(error, `create a comment on ${where}`);
  }
}

function describeTarget(target: CommentTarget): string {
  return `${target.owner}/${target.repo}#${target.issueNumber}`;
}

function handle(error: unknown, call: string): { action: "forbidden"; message: string } {
  const status = statusOf(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (status === 403) {
    return {
      action: "forbidden",
      message:
        `GitHub refused to ${call} (403: ${reason}). Give the workflow job \`permissions: pull-requests: write\` ` +
        "(or `issues: write`); pull requests from forks only get a read-only token.",
    };
  }
  const answer = status === undefined ? "" : ` (HTTP ${status})`;
  throw new GitHubCommentError(`Could not ${call}${answer}: ${reason}`, status, { cause: error });
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
}
