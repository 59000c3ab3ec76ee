/**
 * The CI a command-line run happens in, read from its environment: which pull or merge request it is
 * about, where its comment lives, how a file's raw URL is made. GitLab CI and GitHub Actions are known;
 * elsewhere (Jenkins, Bitbucket, CircleCI, Azure) the review is what `--merge-request` says.
 */
import { readFileSync } from "node:fs";
import { headCommit } from "../../adapters/git/commits.ts";
import { readRunContext } from "../../adapters/github/context.ts";
import { rawFileUrlBuilder } from "../../adapters/github/source-url.ts";
import { isGitLabCi, readGitLabContext } from "../../adapters/gitlab/context.ts";
import type { Logger } from "../../core/logger.ts";
import type { ReviewKind } from "../../core/slugs/preview.ts";
import type { ReviewThread } from "../../core/sync/ports.ts";
import type { RunSettings } from "../../core/sync/run-settings.ts";
import { type RunRepository, runRepository } from "../repository.ts";
import type { Env } from "./output.ts";

export interface CiRun {
  /** "GitLab CI", "GitHub Actions", or undefined elsewhere. */
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
}

/** Reads the CI's context; a malformed CI variable throws an error naming it. */
export function readCiRun(env: Env, workspace: string, mergeRequest: number | undefined): CiRun {
  const processEnv = env as NodeJS.ProcessEnv;
  const repository = runRepository(env, workspace);
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
    };
  }
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
  };
}

function loaded<T>(module: T | undefined): T {
  if (module === undefined) throw new Error("The review thread is not loaded: await loadReview() first.");
  return module;
}

/** The commit the run publishes from: the CI's own, else the checkout's HEAD. */
export async function runCommit(env: Env, ci: CiRun, workspace: string): Promise<string | undefined> {
  const fromCi =
    ci.name === "GitHub Actions" ? env.GITHUB_SHA : ci.name === "GitLab CI" ? env.CI_COMMIT_SHA : undefined;
  return fromCi && /^[0-9a-f]{40,64}$/.test(fromCi) ? fromCi : headCommit(workspace);
}
