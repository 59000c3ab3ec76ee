/**
 * The Azure Pipelines job a run happens in, read once from the variables the agent sets (sources in
 * docs/design/azure-devops.md): which pull request it builds, and where that pull request's comments
 * live. Values from the environment are checked here; a malformed one throws an error naming it.
 */
import { CiVariableError, nonEmpty, quote } from "../review-host/ci-variables.ts";

/** The repository host whose pull requests get the comment: Azure Repos Git. */
export const AZURE_REPOS_GIT = "TfsGit";

export interface AzureDevOpsContext {
  /** `BUILD_REPOSITORY_PROVIDER`: "TfsGit" for Azure Repos; "GitHub", "Bitbucket", … otherwise. */
  provider: string;
  /** `BUILD_SOURCEVERSION`: the commit built (a pull request build's merge commit), when a commit id. */
  sourceVersion: string | undefined;
  /**
   * The pull request the build validates: `SYSTEM_PULLREQUEST_PULLREQUESTID` on Azure Repos (the number
   * the web page shows), `SYSTEM_PULLREQUEST_PULLREQUESTNUMBER` for GitHub repositories.
   */
  pullRequest: { number: number; targetBranch: string | undefined } | undefined;
  /** `SYSTEM_ACCESSTOKEN`, which a job has only when its YAML maps it into the step's env. */
  token: string | undefined;
}

/** Where an Azure Repos repository's pull requests live: every request goes below `collectionUri`. */
export interface AzureReposTarget {
  /** `SYSTEM_COLLECTIONURI` without its trailing slash, e.g. "https://dev.azure.com/fabrikam". */
  collectionUri: string;
  /** `SYSTEM_TEAMPROJECTID`, else `SYSTEM_TEAMPROJECT`: the project in API paths. */
  project: string;
  /** `SYSTEM_TEAMPROJECT`, for the links to the comment; the project id when unset. */
  projectName: string;
  /** `BUILD_REPOSITORY_ID`: the repository's GUID. */
  repositoryId: string;
  /** `BUILD_REPOSITORY_NAME`, for the links to the comment; the repository id when unset. */
  repositoryName: string;
}

/** An Azure Pipelines variable holds a value the run cannot use; the message names the variable. */
export class AzureDevOpsContextError extends CiVariableError {
  override readonly name = "AzureDevOpsContextError";
}

/** Whether the environment is an Azure Pipelines job (`TF_BUILD=True`). */
export function isAzurePipelines(env: NodeJS.ProcessEnv): boolean {
  return env.TF_BUILD?.trim().toLowerCase() === "true";
}

export function readAzureDevOpsContext(env: NodeJS.ProcessEnv): AzureDevOpsContext {
  const provider = nonEmpty(env.BUILD_REPOSITORY_PROVIDER) ?? "";
  const numberVariable =
    provider === AZURE_REPOS_GIT
      ? "SYSTEM_PULLREQUEST_PULLREQUESTID"
      : "SYSTEM_PULLREQUEST_PULLREQUESTNUMBER";
  const numberText = nonEmpty(env[numberVariable]);
  const sourceVersion = nonEmpty(env.BUILD_SOURCEVERSION);
  return {
    provider,
    sourceVersion: sourceVersion && /^[0-9a-f]{40,64}$/.test(sourceVersion) ? sourceVersion : undefined,
    pullRequest:
      numberText === undefined
        ? undefined
        : {
            number: parsePullRequestNumber(numberText, numberVariable),
            targetBranch: nonEmpty(env.SYSTEM_PULLREQUEST_TARGETBRANCH),
          },
    token: AzureDevOpsContextError.token(
      env.SYSTEM_ACCESSTOKEN,
      "SYSTEM_ACCESSTOKEN",
      "map it as `SYSTEM_ACCESSTOKEN: $(System.AccessToken)` in the step's env.",
    ),
  };
}

/**
 * The Azure Repos repository of the job. The token goes to `SYSTEM_COLLECTIONURI`'s origin only: the
 * agent sets it, a pull request can change it only through the pipeline's YAML, which holds the token
 * anyway, and never through a file the run reads.
 */
export function readAzureReposTarget(env: NodeJS.ProcessEnv): AzureReposTarget {
  const uriText = nonEmpty(env.SYSTEM_COLLECTIONURI);
  if (uriText === undefined) {
    throw new AzureDevOpsContextError(
      "SYSTEM_COLLECTIONURI",
      "it is not set. Azure Pipelines sets it in every job (for example https://dev.azure.com/fabrikam/).",
    );
  }
  const collectionUri = AzureDevOpsContextError.webUrl(uriText, "SYSTEM_COLLECTIONURI");
  const projectName = pathPart(env.SYSTEM_TEAMPROJECT, "SYSTEM_TEAMPROJECT");
  const projectId = pathPart(env.SYSTEM_TEAMPROJECTID, "SYSTEM_TEAMPROJECTID");
  const project = projectId ?? projectName;
  if (project === undefined) {
    throw new AzureDevOpsContextError(
      "SYSTEM_TEAMPROJECTID",
      "it is not set, nor SYSTEM_TEAMPROJECT. Azure Pipelines sets both in every job.",
    );
  }
  const repositoryId = pathPart(env.BUILD_REPOSITORY_ID, "BUILD_REPOSITORY_ID");
  if (repositoryId === undefined) {
    throw new AzureDevOpsContextError(
      "BUILD_REPOSITORY_ID",
      "it is not set. Azure Pipelines sets it in every job.",
    );
  }
  const repositoryName = pathPart(env.BUILD_REPOSITORY_NAME, "BUILD_REPOSITORY_NAME");
  return {
    collectionUri,
    project,
    projectName: projectName ?? project,
    repositoryId,
    repositoryName: repositoryName ?? repositoryId,
  };
}

/** A pull request number: a positive integer in decimal digits. `name` says where it came from. */
export function parsePullRequestNumber(text: string, name: string): number {
  return AzureDevOpsContextError.requestNumber(text, name, "a pull request id");
}

/**
 * A project or repository name or id as one segment of an API path: no slash, no dot segment, no
 * control character, at most 256 characters (Azure DevOps' names are shorter). Encoded where used.
 */
function pathPart(value: string | undefined, name: string): string | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  if (text.length > 256 || /[/\\\p{Cc}]/u.test(text) || /^\.+$/.test(text)) {
    throw new AzureDevOpsContextError(name, `${quote(text)} is not a project or repository name or id.`);
  }
  return text;
}

/** `text` with the credentials of a URL masked, for an error message. */
