import { describe, expect, it } from "vitest";
import {
  GitLabContextError,
  isGitLabCi,
  parseMergeRequestIid,
  readGitLabContext,
} from "../../src/adapters/gitlab/context.ts";

const TOKEN = "glpat-contextTestToken-123456";

/** The variables GitLab sets in a merge-request pipeline. */
function mergeRequestEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    GITLAB_CI: "true",
    CI_API_V4_URL: "https://gitlab.example.com/api/v4",
    CI_PROJECT_ID: "77",
    CI_PROJECT_PATH: "acme/platform/api",
    CI_PROJECT_NAME: "api",
    CI_PROJECT_URL: "https://gitlab.example.com/acme/platform/api",
    CI_PROJECT_DIR: "/builds/acme/platform/api",
    CI_DEFAULT_BRANCH: "main",
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_PIPELINE_URL: "https://gitlab.example.com/acme/platform/api/-/pipelines/901",
    CI_MERGE_REQUEST_IID: "12",
    CI_MERGE_REQUEST_PROJECT_ID: "77",
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "77",
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature/pets",
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
    CI_JOB_TOKEN: "job-token-value-xyz",
    GITLAB_TOKEN: TOKEN,
    ...overrides,
  };
}

function errorOf(env: NodeJS.ProcessEnv): GitLabContextError {
  try {
    readGitLabContext(env);
  } catch (error) {
    if (error instanceof GitLabContextError) return error;
    throw error;
  }
  throw new Error("expected a GitLabContextError");
}

describe("readGitLabContext", () => {
  it("reads a merge-request pipeline, whose default mode is preview", () => {
    expect(readGitLabContext(mergeRequestEnv())).toEqual({
      apiUrl: "https://gitlab.example.com/api/v4",
      projectId: "77",
      projectPath: "acme/platform/api",
      repositoryName: "api",
      projectUrl: "https://gitlab.example.com/acme/platform/api",
      defaultBranch: "main",
      branch: undefined,
      tag: undefined,
      pipelineSource: "merge_request_event",
      pipelineUrl: "https://gitlab.example.com/acme/platform/api/-/pipelines/901",
      workspace: "/builds/acme/platform/api",
      mergeRequest: { iid: 12, sourceBranch: "feature/pets", targetBranch: "main", isFork: false },
      token: TOKEN,
      hasJobToken: true,
      defaultMode: "preview",
    });
    expect(isGitLabCi(mergeRequestEnv())).toBe(true);
    expect(isGitLabCi({ GITLAB_CI: "1" })).toBe(false);
  });

  it("reads a push to the default branch, whose default mode is publish", () => {
    const context = readGitLabContext(
      mergeRequestEnv({
        CI_PIPELINE_SOURCE: "push",
        CI_COMMIT_BRANCH: "main",
        CI_MERGE_REQUEST_IID: undefined,
        GITLAB_TOKEN: undefined,
        CI_API_V4_URL: "https://gitlab.example.com/api/v4/",
      }),
    );
    expect(context.mergeRequest).toBeUndefined();
    expect(context.defaultMode).toBe("publish");
    expect(context.branch).toBe("main");
    expect(context.token).toBeUndefined();
    expect(context.apiUrl).toBe("https://gitlab.example.com/api/v4");
  });

  it("names the repository after the project path when CI_PROJECT_NAME is missing, else the folder", () => {
    expect(readGitLabContext(mergeRequestEnv({ CI_PROJECT_NAME: undefined })).repositoryName).toBe("api");
    expect(
      readGitLabContext(mergeRequestEnv({ CI_PROJECT_NAME: undefined, CI_PROJECT_PATH: undefined }))
        .repositoryName,
    ).toBe("api");
  });

  it("flags a merge request from a fork", () => {
    const context = readGitLabContext(mergeRequestEnv({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "1234" }));
    expect(context.mergeRequest?.isFork).toBe(true);
  });

  it.each([
    ["0"],
    ["-3"],
    ["1.5"],
    ["1e3"],
    ["012"],
    ["12abc"],
    ["12; curl evil.example"],
    ["99999999999999999999"],
    ["0x10"],
  ])("refuses the merge request IID %j", (iid) => {
    const error = errorOf(mergeRequestEnv({ CI_MERGE_REQUEST_IID: iid }));
    expect(error.variable).toBe("CI_MERGE_REQUEST_IID");
    expect(error.message).toMatch(/positive integer/);
  });

  it("needs the IID in a merge-request pipeline", () => {
    expect(errorOf(mergeRequestEnv({ CI_MERGE_REQUEST_IID: "" })).message).toMatch(
      /not set, though CI_PIPELINE_SOURCE is merge_request_event/,
    );
  });

  it.each([
    ["http://gitlab.example.com/api/v4"],
    ["ftp://gitlab.example.com/api/v4"],
    ["https://user:pass@gitlab.example.com/api/v4"],
    ["https://gitlab.example.com/api/v4?x=1"],
    ["https://gitlab.example.com/api/v4#frag"],
    ["gitlab.example.com/api/v4"],
    ["javascript:alert(1)"],
    [""],
  ])("refuses the API URL %j", (apiUrl) => {
    const error = errorOf(mergeRequestEnv({ CI_API_V4_URL: apiUrl }));
    expect(error.variable).toBe("CI_API_V4_URL");
  });

  it("quotes a refused API URL with its credentials masked", () => {
    const error = errorOf(
      mergeRequestEnv({ CI_API_V4_URL: "https://deploy:s3cret-pass@gitlab.example.com/api/v4" }),
    );
    expect(error.message).toContain("https://***@gitlab.example.com/api/v4");
    expect(error.message).not.toContain("s3cret-pass");
    expect(error.message).not.toContain("deploy");
  });

  it.each([
    [
      "https://gitlab.example.com/api/v4?private_token=glpat-s3cret-pass",
      "https://gitlab.example.com/api/v4?***",
    ],
    ["https://gitlab.example.com/api/v4#s3cret-pass", "https://gitlab.example.com/api/v4#***"],
    ["https://deploy:s3cret/pass@gitlab.example.com/api/v4", "https://***@gitlab.example.com/api/v4"],
    ["gitlab.example.com/api/v4?private_token=s3cret-pass", "gitlab.example.com/api/v4?***"],
    ["oauth2:glpat-s3cret@gitlab.example.com/api/v4", "***@gitlab.example.com/api/v4"],
    ["https://deploy:12#s3cret@gitlab.example.com/api/v4", "https://***@gitlab.example.com/api/v4"],
  ])("quotes the refused API URL %j with its secret masked", (apiUrl, shown) => {
    const error = errorOf(mergeRequestEnv({ CI_API_V4_URL: apiUrl }));
    expect(error.message).toContain(JSON.stringify(shown));
    expect(error.message).not.toContain("s3cret");
  });

  it.each([["http://127.0.0.1:8080/api/v4"], ["http://localhost/api/v4"], ["http://[::1]:3000/api/v4"]])(
    "accepts plain http to the loopback host %j",
    (apiUrl) => {
      expect(readGitLabContext(mergeRequestEnv({ CI_API_V4_URL: apiUrl })).apiUrl).toBe(apiUrl);
    },
  );

  it.each([[""], ["   "], ["../../user"], ["77/../../admin"], ["a b"], ["%2e%2e"]])(
    "refuses the project id %j",
    (projectId) => {
      expect(errorOf(mergeRequestEnv({ CI_PROJECT_ID: projectId })).variable).toBe("CI_PROJECT_ID");
    },
  );

  it("drops web addresses that are not https, rather than linking to them", () => {
    const context = readGitLabContext(
      mergeRequestEnv({ CI_PROJECT_URL: "javascript:alert(1)", CI_PIPELINE_URL: "http://evil.example/x" }),
    );
    expect(context.projectUrl).toBeUndefined();
    expect(context.pipelineUrl).toBeUndefined();
  });

  it("refuses a token a header cannot carry, without showing it", () => {
    const error = errorOf(mergeRequestEnv({ GITLAB_TOKEN: "glpat-abc\r\nX-Evil: 1" }));
    expect(error.variable).toBe("GITLAB_TOKEN");
    expect(error.message).not.toContain("glpat-abc");
    expect(error.message).not.toContain("X-Evil");
  });
});

describe("parseMergeRequestIid", () => {
  it("reads a CLI flag's value and names the flag in errors", () => {
    expect(parseMergeRequestIid(" 31 ", "--merge-request")).toBe(31);
    expect(() => parseMergeRequestIid("31x", "--merge-request")).toThrow(/^--merge-request: /);
  });
});
