import path from "node:path";
import { webUrl } from "../http/web-url.ts";
import { CiVariableError, nonEmpty, quote } from "../review-host/ci-variables.ts";

/** The merge request a merge-request pipeline runs for (`CI_MERGE_REQUEST_*`). */
export interface MergeRequestContext {
  /** `CI_MERGE_REQUEST_IID`: the number shown as `!<iid>` in the project. */
  iid: number;
  /** `CI_MERGE_REQUEST_SOURCE_BRANCH_NAME`, when set. */
  sourceBranch: string | undefined;
  /** `CI_MERGE_REQUEST_TARGET_BRANCH_NAME`, when set. */
  targetBranch: string | undefined;
  /** `CI_MERGE_REQUEST_DIFF_BASE_SHA`: the commit the merge request's changes are compared with. */
  diffBaseSha: string | undefined;
  /**
   * The source branch lives in another project (`CI_MERGE_REQUEST_SOURCE_PROJECT_ID` differs from
   * `CI_MERGE_REQUEST_PROJECT_ID`). Such pipelines run in the fork by default, without the parent
   * project's masked variables.
   */
  isFork: boolean;
}

/**
 * Everything the run needs to know about the GitLab CI job that started it, read once from the
 * environment GitLab sets ({@link readGitLabContext}). Values from the environment are checked here.
 */
export interface GitLabContext {
  /** `CI_API_V4_URL` without a trailing slash, for example "https://gitlab.com/api/v4". */
  apiUrl: string;
  /** `CI_PROJECT_ID`: the numeric id (or a full path), as the REST API's `:id`. */
  projectId: string;
  /** `CI_PROJECT_PATH`, for example "group/sub/project"; undefined when unset. */
  projectPath: string | undefined;
  /** `CI_PROJECT_NAME`, else the last part of `CI_PROJECT_PATH`, else the workspace folder's name. */
  repositoryName: string;
  /** `CI_PROJECT_URL`, when it is an https (or loopback http) address: links to notes. */
  projectUrl: string | undefined;
  /** `CI_DEFAULT_BRANCH`, when set. */
  defaultBranch: string | undefined;
  /** `CI_COMMIT_BRANCH`: set in branch pipelines, not in merge-request or tag pipelines. */
  branch: string | undefined;
  /** `CI_COMMIT_TAG`: set in tag pipelines. */
  tag: string | undefined;
  /** `CI_PIPELINE_SOURCE`: "push", "merge_request_event", "schedule", "web", …; "" when unset. */
  pipelineSource: string;
  /** `CI_PIPELINE_URL`, when it is an https (or loopback http) address. */
  pipelineUrl: string | undefined;
  /** `CI_PROJECT_DIR`; the current directory when unset. */
  workspace: string;
  /** Set in merge-request pipelines. */
  mergeRequest?: MergeRequestContext;
  /** `GITLAB_TOKEN`: a project or group access token that may write notes; undefined when unset. */
  token: string | undefined;
  /** `CI_JOB_TOKEN` is present. It cannot write merge request notes, so it is never used for them. */
  hasJobToken: boolean;
  /** The mode a run takes when none is asked for: `preview` in a merge-request pipeline, else `publish`. */
  defaultMode: "preview" | "publish";
}

/** A GitLab CI variable holds a value the run cannot use; the message names the variable. */
export class GitLabContextError extends CiVariableError {
  override readonly name = "GitLabContextError";
}

/** Whether the environment is a GitLab CI job (`GITLAB_CI=true`). */
export function isGitLabCi(env: NodeJS.ProcessEnv): boolean {
  return env.GITLAB_CI === "true";
}

/**
 * Reads the GitLab CI job's context from `env` (normally `process.env`). Throws
 * {@link GitLabContextError} when a variable the run relies on is missing or malformed: an API URL that
 * is neither https nor loopback http, an empty project id, a merge request IID that is not a positive
 * integer, a token a request header cannot carry.
 */
export function readGitLabContext(env: NodeJS.ProcessEnv): GitLabContext {
  const apiUrl = parseApiUrl(env.CI_API_V4_URL);
  const projectId = parseProjectId(env.CI_PROJECT_ID);
  const projectPath = parseProjectPath(env.CI_PROJECT_PATH);
  const workspace = nonEmpty(env.CI_PROJECT_DIR) ?? process.cwd();
  const pipelineSource = nonEmpty(env.CI_PIPELINE_SOURCE) ?? "";
  const mergeRequest = parseMergeRequest(env, pipelineSource);
  return {
    apiUrl,
    projectId,
    projectPath,
    repositoryName: repositoryName(env.CI_PROJECT_NAME, projectPath, workspace),
    projectUrl: optionalWebUrl(env.CI_PROJECT_URL),
    defaultBranch: nonEmpty(env.CI_DEFAULT_BRANCH),
    branch: nonEmpty(env.CI_COMMIT_BRANCH),
    tag: nonEmpty(env.CI_COMMIT_TAG),
    pipelineSource,
    pipelineUrl: optionalWebUrl(env.CI_PIPELINE_URL),
    workspace,
    ...(mergeRequest ? { mergeRequest } : {}),
    token: GitLabContextError.token(
      env.GITLAB_TOKEN,
      "GITLAB_TOKEN",
      "store the token's value alone in the CI/CD variable.",
    ),
    hasJobToken: nonEmpty(env.CI_JOB_TOKEN) !== undefined,
    defaultMode: mergeRequest ? "preview" : "publish",
  };
}

/**
 * A merge request IID given as text (`CI_MERGE_REQUEST_IID`, or a CLI's `--merge-request`): a positive
 * integer written in decimal digits, without sign, exponent or leading zeros. `name` says where the
 * value came from in the error.
 */
export function parseMergeRequestIid(text: string, name = "CI_MERGE_REQUEST_IID"): number {
  return GitLabContextError.requestNumber(text, name, "a merge request IID");
}

/**
 * `CI_API_V4_URL` checked: an absolute https address, or plain http to a loopback host (a local
 * GitLab or a test); no credentials, query or fragment. The token is only ever sent to this origin.
 */
export function parseApiUrl(value: string | undefined, name = "CI_API_V4_URL"): string {
  const text = nonEmpty(value);
  if (text === undefined) {
    throw new GitLabContextError(
      name,
      "it is not set. GitLab sets it in every CI job (for example https://gitlab.com/api/v4).",
    );
  }
  return GitLabContextError.webUrl(text, name);
}

function parseProjectId(value: string | undefined): string {
  const text = nonEmpty(value);
  if (text === undefined) {
    throw new GitLabContextError("CI_PROJECT_ID", "it is not set. GitLab sets it in every CI job.");
  }
  // A numeric id, or a full path (`group/sub/project`), which requests carry URL-encoded.
  if (!/^[1-9][0-9]{0,18}$/.test(text) && !isProjectPath(text)) {
    throw new GitLabContextError(
      "CI_PROJECT_ID",
      `${quote(text)} is neither a numeric project id nor a project path.`,
    );
  }
  return text;
}

function parseProjectPath(value: string | undefined): string | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  if (!isProjectPath(text)) {
    throw new GitLabContextError(
      "CI_PROJECT_PATH",
      `${quote(text)} is not a project path such as group/project.`,
    );
  }
  return text;
}

function isProjectPath(text: string): boolean {
  const parts = text.split("/");
  return (
    text.length <= 1024 &&
    parts.length >= 2 &&
    parts.every((part) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(part) && !/^\.+$/.test(part))
  );
}

function repositoryName(
  name: string | undefined,
  projectPath: string | undefined,
  workspace: string,
): string {
  const fromName = nonEmpty(name);
  if (fromName && /^[A-Za-z0-9_.-]{1,255}$/.test(fromName)) return fromName;
  const fromPath = projectPath?.split("/").at(-1);
  if (fromPath) return fromPath;
  return path.basename(path.resolve(workspace));
}

function parseMergeRequest(env: NodeJS.ProcessEnv, pipelineSource: string): MergeRequestContext | undefined {
  const iidText = nonEmpty(env.CI_MERGE_REQUEST_IID);
  if (iidText === undefined) {
    if (pipelineSource === "merge_request_event") {
      throw new GitLabContextError(
        "CI_MERGE_REQUEST_IID",
        "it is not set, though CI_PIPELINE_SOURCE is merge_request_event.",
      );
    }
    return undefined;
  }
  const sourceProject = nonEmpty(env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID);
  const targetProject = nonEmpty(env.CI_MERGE_REQUEST_PROJECT_ID);
  return {
    iid: parseMergeRequestIid(iidText),
    sourceBranch: nonEmpty(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME),
    targetBranch: nonEmpty(env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME),
    diffBaseSha: commitId(env.CI_MERGE_REQUEST_DIFF_BASE_SHA),
    isFork: sourceProject !== undefined && targetProject !== undefined && sourceProject !== targetProject,
  };
}

function optionalWebUrl(value: string | undefined): string | undefined {
  const text = nonEmpty(value);
  return text === undefined ? undefined : webUrl(text);
}

/** A full commit id, or undefined for anything else. */
function commitId(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text && /^[0-9a-f]{40,64}$/.test(text) ? text : undefined;
}
