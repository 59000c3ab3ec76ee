/**
 * The Bitbucket Pipelines job a run happens in, read once from the variables Bitbucket sets
 * (support.atlassian.com/bitbucket-cloud/docs/variables-and-secrets): the repository, the pull request of
 * a `pull-requests:` pipeline, and the token that may write its comment. Values are checked here.
 */
import path from "node:path";
import { CiVariableError, nonEmpty, quote } from "../review-host/ci-variables.ts";

/** Bitbucket Cloud's REST API; the token goes nowhere else unless `BITBUCKET_API_URL` names another. */
export const BITBUCKET_API_URL = "https://api.bitbucket.org/2.0";
/** Where pull requests are shown to people. */
export const BITBUCKET_WEB_URL = "https://bitbucket.org";

export interface BitbucketContext {
  /** `BITBUCKET_API_URL`, else {@link BITBUCKET_API_URL}: https (or loopback http), no trailing slash. */
  apiUrl: string;
  /** `BITBUCKET_WORKSPACE`: the workspace's slug. */
  workspace: string;
  /** `BITBUCKET_REPO_SLUG`. */
  repoSlug: string;
  /** `BITBUCKET_PR_ID`: set in pull request pipelines. */
  pullRequestId: number | undefined;
  /** `BITBUCKET_COMMIT`, when it is a commit id. */
  commit: string | undefined;
  /** `BITBUCKET_PR_DESTINATION_COMMIT` (Bitbucket gives it abbreviated), when it is a commit id. */
  destinationCommit: string | undefined;
  /** `BITBUCKET_PR_DESTINATION_BRANCH`. */
  destinationBranch: string | undefined;
  /** `BITBUCKET_CLONE_DIR`; the current directory when unset. */
  cloneDir: string;
  /** `BITBUCKET_TOKEN`: a repository, project or workspace access token; undefined when unset. */
  token: string | undefined;
}

/** A Bitbucket variable holds a value the run cannot use; the message names the variable. */
export class BitbucketContextError extends CiVariableError {
  override readonly name = "BitbucketContextError";
}

/** Whether the environment is a Bitbucket Pipelines step. */
export function isBitbucketPipelines(env: NodeJS.ProcessEnv): boolean {
  return (
    nonEmpty(env.BITBUCKET_BUILD_NUMBER) !== undefined && nonEmpty(env.BITBUCKET_WORKSPACE) !== undefined
  );
}

export function readBitbucketContext(env: NodeJS.ProcessEnv): BitbucketContext {
  const apiText = nonEmpty(env.BITBUCKET_API_URL);
  const apiUrl =
    apiText === undefined ? BITBUCKET_API_URL : BitbucketContextError.webUrl(apiText, "BITBUCKET_API_URL");
  const prText = nonEmpty(env.BITBUCKET_PR_ID);
  return {
    apiUrl,
    workspace: pathPart(env.BITBUCKET_WORKSPACE, "BITBUCKET_WORKSPACE"),
    repoSlug: pathPart(env.BITBUCKET_REPO_SLUG, "BITBUCKET_REPO_SLUG"),
    pullRequestId: prText === undefined ? undefined : parsePullRequestId(prText, "BITBUCKET_PR_ID"),
    commit: commitId(env.BITBUCKET_COMMIT),
    destinationCommit: commitId(env.BITBUCKET_PR_DESTINATION_COMMIT),
    destinationBranch: nonEmpty(env.BITBUCKET_PR_DESTINATION_BRANCH),
    cloneDir: nonEmpty(env.BITBUCKET_CLONE_DIR) ?? path.resolve("."),
    token: BitbucketContextError.token(
      env.BITBUCKET_TOKEN,
      "BITBUCKET_TOKEN",
      "store the token's value alone in the secured variable.",
    ),
  };
}

/** A pull request id given as text: a positive decimal integer; `name` says where it came from. */
export function parsePullRequestId(text: string, name: string): number {
  return BitbucketContextError.requestNumber(text, name, "a pull request id");
}

/** A workspace or repository slug, as a request path carries it unencoded. */
function pathPart(value: string | undefined, name: string): string {
  const text = nonEmpty(value);
  if (text === undefined)
    throw new BitbucketContextError(name, "it is not set. Bitbucket Pipelines sets it in every step.");
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(text) || /^\.+$/.test(text)) {
    throw new BitbucketContextError(name, `${quote(text)} is not a Bitbucket slug.`);
  }
  return text;
}

function commitId(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text && /^[0-9a-f]{7,64}$/.test(text) ? text : undefined;
}
