import type { Logger } from "../../core/logger.ts";
import type { RunSettings } from "../../core/plan/run-settings.ts";
import type { ReviewRun, ReviewThread } from "../../core/ports.ts";
import { createGitHubClient } from "./api.ts";
import { pullRequestThread } from "./comment.ts";
import type { RunContext } from "./context.ts";

export type CommentRun = ReviewRun;

/** The pull request's one living comment, as the run sees it. */
export type PullRequestComments = ReviewThread;

export interface CommentOptions {
  /** Epoch milliseconds after which no GitHub request is sent or waited for. */
  deadline: number;
}

/**
 * The comment of the pull request the run is about (see `github/comment.ts` and
 * `review-thread/thread.ts`); undefined outside a pull request, or (with a warning) without a token.
 */
export function createPullRequestComments(
  config: RunSettings,
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
  return pullRequestThread({
    client: createGitHubClient(config.githubToken, context.apiUrl, { deadline: options.deadline }),
    target: { owner: repository.owner, repo: repository.name, issueNumber: pullRequest.number },
    key: config.commentKey,
    logger,
  });
}
