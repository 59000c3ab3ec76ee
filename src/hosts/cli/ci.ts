/**
 * The CI a command-line run happens in, read from its environment: which pull or merge request it is
 * about, where its comment lives, how a file's raw URL is made. GitLab CI, GitHub Actions, Bitbucket
 * Pipelines and Azure Pipelines are known; elsewhere (Jenkins, CircleCI) the review is what `--merge-request` says.
 */
import { readFileSync } from "node:fs";
import {
  AZURE_REPOS_GIT,
  AzureDevOpsContextError,
  isAzurePipelines,
  readAzureDevOpsContext,
  readAzureReposTarget,
} from "../../adapters/azure-devops/context.ts";
import {
  BITBUCKET_WEB_URL,
  isBitbucketPipelines,
  readBitbucketContext,
} from "../../adapters/bitbucket/context.ts";
import { headCommit } from "../../adapters/git/commits.ts";
import { commitParents } from "../../adapters/git/merge-parents.ts";
import { readRunContext } from "../../adapters/github/context.ts";
import { blobLineLinks, rawFileUrlBuilder } from "../../adapters/github/source-url.ts";
import { isGitLabCi, readGitLabContext } from "../../adapters/gitlab/context.ts";
import { azureReposLineUrl, bitbucketLineUrl, gitlabLineUrl } from "../../adapters/review-host/line-urls.ts";
import type { Logger } from "../../core/logger.ts";
import type { RunSettings } from "../../core/plan/run-settings.ts";
import type { ReviewThread } from "../../core/ports.ts";
import type { LineUrl, SourceLinks } from "../../core/report/line-links.ts";
import type { PullRequestStates } from "../../core/review-thread/pull-request-state.ts";
import type { ReviewKind } from "../../core/slugs/preview.ts";
import { type RunRepository, runRepository } from "../repository.ts";
import { UsageError } from "./errors.ts";
import type { Env } from "./streams.ts";

export interface CiRun {
  /** "GitLab CI", "GitHub Actions", "Bitbucket Pipelines", "Azure Pipelines", or undefined elsewhere. */
  name: string | undefined;
  /** The repository's name and identity, from the CI's variables or the `origin` remote (../repository.ts). */
  repository: RunRepository;
  /** The commit the review's changes are compared with, when the CI says. */
  baseCommit: string | undefined;
  /** The pull or merge request the run is about: from the CI's event, else `--merge-request`. */
  review: { number: number; kind: ReviewKind; closed: boolean } | undefined;
  /**
   * Loads what {@link openReview} needs (the CI's review thread and its HTTP client): only a run with a
   * review loads it.
   */
  loadReview(): Promise<void>;
  /** The review's comment or note, when this CI has one the run may write; after {@link loadReview}. */
  openReview(config: RunSettings, logger: Logger, deadline: number): ReviewThread | undefined;
  /**
   * How the URL GitBook fetches a file from (`--source url`) is made; undefined where the CI gives none.
   * Asked only in that mode: it may throw an input error naming what the CI failed to set.
   */
  sourceUrls(): ((file: string) => string) | undefined;
  /** How the review comment links a place to its line on the repository's host; undefined where unknown. */
  lineLinks(): SourceLinks | undefined;
  /**
   * Whether the repository's pull requests are open, for a cleanup sweep; undefined where the CI's host
   * has no such port (or no token for it). May throw an input error naming what the CI failed to set.
   * The host's client is imported at the first question.
   */
  pullRequestStates?(deadline: number): PullRequestStates | undefined;
}

/**
 * Reads the CI's context; a malformed CI variable throws an error naming it. `origin` reads the checkout's
 * `origin` remote when no CI variable names the repository (git, by default).
 */
export function readCiRun(
  env: Env,
  workspace: string,
  mergeRequest: number | undefined,
  origin?: (workspace: string) => string | undefined,
): CiRun {
  const processEnv = env as NodeJS.ProcessEnv;
  const repository = runRepository(env, workspace, origin);
  if (isGitLabCi(processEnv)) {
    const context = readGitLabContext(processEnv);
    let notes: typeof import("../../adapters/gitlab/notes.ts") | undefined;
    const number = mergeRequest ?? context.mergeRequest?.iid;
    const sha = env.CI_COMMIT_SHA ?? "";
    return {
      name: "GitLab CI",
      baseCommit: context.mergeRequest?.diffBaseSha,
      repository,
      review: number === undefined ? undefined : { number, kind: "merge-request", closed: false },
      loadReview: async () => {
        notes ??= await import("../../adapters/gitlab/notes.ts");
      },
      openReview: (config, logger, deadline) =>
        number === undefined
          ? undefined
          : loaded(notes).createMergeRequestNotes({
              context,
              mergeRequestIid: number,
              commentKey: config.commentKey,
              logger,
              deadline,
            }),
      sourceUrls: () =>
        context.projectUrl && /^[0-9a-f]{40}$/.test(sha)
          ? (file: string) =>
              `${context.projectUrl}/-/raw/${sha}/${file.split("/").map(encodeURIComponent).join("/")}`
          : undefined,
      lineLinks: () => linksAt(gitlabLineUrl(context.projectUrl), sha),
    };
  }
  if (isAzurePipelines(processEnv)) return azurePipelinesRun(processEnv, workspace, mergeRequest, repository);
  if (isBitbucketPipelines(processEnv)) return readBitbucketRun(processEnv, repository, mergeRequest);
  if (env.GITHUB_ACTIONS === "true") {
    const context = readRunContext(processEnv, (file) => readFileSync(file, "utf8"));
    const pullRequest = context.pullRequest;
    let comments: typeof import("../../adapters/github/pull-request-thread.ts") | undefined;
    const number = mergeRequest ?? pullRequest?.number;
    return {
      name: "GitHub Actions",
      baseCommit: pullRequest?.baseSha || undefined,
      repository,
      review:
        number === undefined
          ? undefined
          : {
              number,
              kind: "pull-request",
              closed: pullRequest?.action === "closed" && mergeRequest === undefined,
            },
      loadReview: async () => {
        comments ??= await import("../../adapters/github/pull-request-thread.ts");
      },
      openReview: (config, logger, deadline) =>
        config.comment
          ? loaded(comments).createPullRequestComments(
              { ...config, githubToken: env.GITHUB_TOKEN || undefined },
              context,
              logger,
              { deadline },
            )
          : undefined,
      sourceUrls: () => rawFileUrlBuilder(context),
      lineLinks: () => blobLineLinks(context),
    };
  }
  return {
    name: undefined,
    baseCommit: undefined,
    repository,
    review:
      mergeRequest === undefined ? undefined : { number: mergeRequest, kind: "pull-request", closed: false },
    loadReview: async () => {},
    openReview: () => undefined,
    sourceUrls: () => undefined,
    lineLinks: () => undefined,
  };
}

/**
 * Azure Pipelines: the pull request of a validation build (`SYSTEM_PULLREQUEST_PULLREQUESTID`), its one
 * comment when the repository is in Azure Repos, and the merge commit's first parent as the base.
 */
function azurePipelinesRun(
  env: NodeJS.ProcessEnv,
  workspace: string,
  mergeRequest: number | undefined,
  repository: RunRepository,
): CiRun {
  const context = azureVariables(() => readAzureDevOpsContext(env));
  const number = mergeRequest ?? context.pullRequest?.number;
  const inAzureRepos = context.provider === AZURE_REPOS_GIT;
  const target = () => azureVariables(() => readAzureReposTarget(env));
  const threadsOf = inAzureRepos && number !== undefined ? target() : undefined;
  const parents =
    context.pullRequest && context.sourceVersion
      ? commitParents(workspace, context.sourceVersion)
      : undefined;
  let threads: typeof import("../../adapters/azure-devops/threads.ts") | undefined;
  return {
    name: "Azure Pipelines",
    baseCommit: parents?.length === 2 ? parents[0] : undefined,
    repository,
    review: number === undefined ? undefined : { number, kind: "pull-request", closed: false },
    loadReview: async () => {
      threads ??= await import("../../adapters/azure-devops/threads.ts");
    },
    openReview: (config, logger, deadline) =>
      threadsOf && number !== undefined && config.comment
        ? loaded(threads).createPullRequestThreads({
            target: threadsOf,
            token: context.token,
            number,
            commentKey: config.commentKey,
            logger,
            deadline,
          })
        : undefined,
    sourceUrls: () => undefined,
    lineLinks: () => {
      if (!inAzureRepos) return undefined;
      let at: ReturnType<typeof readAzureReposTarget>;
      try {
        at = readAzureReposTarget(env);
      } catch {
        return undefined; // the comment, which needs the same variables, says which one is wrong
      }
      // A pull request build checks out a merge commit: the links go to the pull request's own commit.
      const head = env.SYSTEM_PULLREQUEST_SOURCECOMMITID?.trim() || context.sourceVersion;
      return linksAt(azureReposLineUrl(at.collectionUri, at.projectName, at.repositoryName), head);
    },
    pullRequestStates: (deadline) => {
      const token = context.token;
      if (!inAzureRepos || !token) return undefined;
      const at = target();
      return lazyStates(async () => {
        threads ??= await import("../../adapters/azure-devops/threads.ts");
        return threads.azurePullRequestStates({ target: at, token, deadline });
      });
    },
  };
}

function azureVariables<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AzureDevOpsContextError)
      throw new UsageError(error.variable, error.message.slice(error.variable.length + 2));
    throw error;
  }
}

/** A Bitbucket Pipelines step: the pull request of `BITBUCKET_PR_ID` (or `--merge-request`) and its comment. */
function readBitbucketRun(
  env: NodeJS.ProcessEnv,
  repository: RunRepository,
  mergeRequest: number | undefined,
): CiRun {
  const context = readBitbucketContext(env);
  const number = mergeRequest ?? context.pullRequestId;
  let comments: typeof import("../../adapters/bitbucket/comments.ts") | undefined;
  return {
    name: "Bitbucket Pipelines",
    baseCommit: number === context.pullRequestId ? context.destinationCommit : undefined,
    repository,
    review: number === undefined ? undefined : { number, kind: "pull-request", closed: false },
    loadReview: async () => {
      comments ??= await import("../../adapters/bitbucket/comments.ts");
    },
    openReview: (config, logger, deadline) =>
      number === undefined || !config.comment
        ? undefined
        : loaded(comments).createBitbucketComments({
            context,
            pullRequestId: number,
            commentKey: config.commentKey,
            logger,
            deadline,
          }),
    sourceUrls: () => undefined,
    lineLinks: () =>
      linksAt(bitbucketLineUrl(BITBUCKET_WEB_URL, context.workspace, context.repoSlug), context.commit),
    // Without a token there is no way to ask (the sweep says so); with one, asked on the first question.
    pullRequestStates: (deadline) => {
      const token = context.token;
      if (!token) return undefined;
      return lazyStates(async () => {
        comments ??= await import("../../adapters/bitbucket/comments.ts");
        return comments.bitbucketPullRequestStates({ context, token, deadline });
      });
    },
  };
}

/** The variable each CI names the built commit in. */
const COMMIT_VARIABLE: Record<string, string> = {
  "GitHub Actions": "GITHUB_SHA",
  "GitLab CI": "CI_COMMIT_SHA",
  "Azure Pipelines": "BUILD_SOURCEVERSION",
  "Bitbucket Pipelines": "BITBUCKET_COMMIT",
};

/** Pull request states whose host client (and its HTTP client) is imported at the first question. */
function lazyStates(load: () => Promise<PullRequestStates>): PullRequestStates {
  let states: Promise<PullRequestStates> | undefined;
  return {
    state: async (number) => {
      states ??= load();
      return (await states).state(number);
    },
  };
}

function linksAt(lineUrl: LineUrl | undefined, headCommit: string | undefined): SourceLinks | undefined {
  return lineUrl && { lineUrl, headCommit: headCommit || undefined };
}

function loaded<T>(module: T | undefined): T {
  if (module === undefined) throw new Error("The review thread is not loaded: await loadReview() first.");
  return module;
}

/** The commit the run publishes from: the CI's own, else the checkout's HEAD. */
export async function runCommit(env: Env, ci: CiRun, workspace: string): Promise<string | undefined> {
  const variable = ci.name === undefined ? undefined : COMMIT_VARIABLE[ci.name];
  const fromCi = variable === undefined ? undefined : env[variable];
  return fromCi && /^[0-9a-f]{40,64}$/.test(fromCi) ? fromCi : headCommit(workspace);
}
