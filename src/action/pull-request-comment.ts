import type { ActionConfig } from "../config/config.ts";
import {
  type CommentTarget,
  type FoundComment,
  findOwnComment,
  findTokenLogin,
  readCommentState,
  upsertOwnComment,
  writeOwnComment,
} from "../github/comment.ts";
import type { RunContext } from "../github/context.ts";
import { createGitHubClient } from "../github/octokit.ts";
import type { Logger } from "../logger.ts";
import { reviewCommentBody } from "../report/review-comment.ts";
import { GITHUB_REVIEW } from "../report/review-host.ts";
import type { ReviewRun, ReviewThread } from "../sync/ports.ts";

export type CommentRun = ReviewRun;

/** The pull request's one living comment, as the run sees it. */
export type PullRequestComments = ReviewThread;

export interface CommentOptions {
  /** Epoch milliseconds after which no GitHub request is sent or waited for. */
  deadline: number;
}

export function createPullRequestComments(
  config: ActionConfig,
  context: RunContext,
  logger: Logger,
  options: CommentOptions,
): PullRequestComments | undefined {
  const pullRequest = context.pullRequest;
  const repository = context.repository;
  if (!pullRequest || !repository) return undefined;
  if (!config.githubToken) {
    logger.warning("No 'github-token' input: the pull request comment is skipped.");
    return undefined;
  }
  const octokit = createGitHubClient(config.githubToken, context.apiUrl, { deadline: options.deadline });
  const place = {
    owner: repository.owner,
    repo: repository.name,
    issueNumber: pullRequest.number,
    key: config.commentKey,
  };
  // Whose comments are ours: the token's identity. Without it no comment is read or written, since a
  // stranger's comment can carry our marker.
  let identity: Promise<CommentTarget | undefined> | undefined;
  const target = () => {
    identity ??= findTokenLogin(octokit).then(
      (author) => ({ ...place, author }),
      (error: unknown) => {
        logger.warning(
          `Could not find which GitHub identity the 'github-token' acts as (GraphQL viewer query: ${(error as Error).message}); ` +
            "the pull request comment is neither read nor written, since only a comment written by that identity is the action's.",
        );
        return undefined;
      },
    );
    return identity;
  };
  // Looked up once per run: finding the comment pages through every comment of the pull request.
  let lookup: Promise<FoundComment | undefined> | undefined;
  const ownComment = (found: CommentTarget) => {
    lookup ??= findOwnComment(octokit, found);
    return lookup;
  };

  const recordedPreviews = async (): Promise<string[]> => {
    const found = await target();
    if (!found) return [];
    try {
      const comment = await ownComment(found);
      return (comment && readCommentState(comment.body, config.commentKey)?.previews) || [];
    } catch (error) {
      logger.warning(`Could not read the pull request comment: ${(error as Error).message}`);
      return [];
    }
  };

  return {
    recordedPreviews,
    async publish(run) {
      const { body } = reviewCommentBody({
        key: config.commentKey,
        host: GITHUB_REVIEW,
        number: pullRequest.number,
        run,
        earlier: await recordedPreviews(),
      });
      const found = await target();
      if (!found) return undefined;
      try {
        const outcome = await ownComment(found).then(
          (existing) => writeOwnComment(octokit, { ...found, body }, existing),
          // The lookup failed earlier: one more try, which reports why (e.g. a 403) as upserting does.
          () => upsertOwnComment(octokit, { ...found, body }),
        );
        if (outcome.action === "forbidden") {
          logger.warning(`Could not write the pull request comment: ${outcome.message}`);
          return undefined;
        }
        logger.info(`Pull request comment ${outcome.action}: ${outcome.url}`);
        return outcome.url;
      } catch (error) {
        logger.warning(`Could not write the pull request comment: ${(error as Error).message}`);
        return undefined;
      }
    },
  };
}
