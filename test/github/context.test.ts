import { describe, expect, it } from "vitest";
import { EventPayloadError, readRunContext } from "../../src/adapters/github/context.ts";

const PAYLOAD_PATH = "/runner/event.json";

function env(eventName: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: PAYLOAD_PATH,
    GITHUB_REPOSITORY: "acme/api",
    GITHUB_SHA: "abc123",
    GITHUB_REF: "refs/heads/main",
    GITHUB_WORKSPACE: "/work/space",
    GITHUB_RUN_ID: "42",
    ...extra,
  };
}

function files(payload: unknown): (path: string) => string {
  return (path) => {
    if (path !== PAYLOAD_PATH) throw new Error(`ENOENT: no such file ${path}`);
    return JSON.stringify(payload);
  };
}

function pullRequestPayload(
  action: string,
  options: { merged?: boolean; headRepo?: string | null; number?: number } = {},
): unknown {
  const headRepo = options.headRepo === undefined ? "acme/api" : options.headRepo;
  return {
    action,
    number: options.number ?? 12,
    pull_request: {
      number: options.number ?? 12,
      merged: options.merged ?? false,
      head: { sha: "head-sha", ref: "feature", repo: headRepo === null ? null : { full_name: headRepo } },
      base: { ref: "main", sha: "c".repeat(40), repo: { full_name: "acme/api" } },
    },
  };
}

const noFiles = (): string => {
  throw new Error("no file expected");
};

describe("readRunContext", () => {
  it("reads a pull_request opened event", () => {
    const context = readRunContext(env("pull_request"), files(pullRequestPayload("opened")));
    expect(context.eventName).toBe("pull_request");
    expect(context.repository).toEqual({ owner: "acme", name: "api", fullName: "acme/api" });
    expect(context.pullRequest).toEqual({
      number: 12,
      action: "opened",
      isFork: false,
      headSha: "head-sha",
      baseSha: "c".repeat(40),
    });
  });

  it("reads synchronize and closed events", () => {
    expect(
      readRunContext(env("pull_request"), files(pullRequestPayload("synchronize"))).pullRequest?.action,
    ).toBe("synchronize");
    const closed = readRunContext(env("pull_request"), files(pullRequestPayload("closed", { merged: true })));
    expect(closed.pullRequest).toMatchObject({ action: "closed" });
  });

  it("recognises a pull request from a fork, and from a deleted fork", () => {
    const fork = readRunContext(
      env("pull_request"),
      files(pullRequestPayload("opened", { headRepo: "eve/api" })),
    );
    expect(fork.pullRequest?.isFork).toBe(true);
    const deleted = readRunContext(
      env("pull_request"),
      files(pullRequestPayload("closed", { headRepo: null })),
    );
    expect(deleted.pullRequest?.isFork).toBe(true);
  });

  it("treats pull_request_target as a pull request event", () => {
    const context = readRunContext(
      env("pull_request_target"),
      files(pullRequestPayload("reopened", { headRepo: "eve/api", number: 3 })),
    );
    expect(context.pullRequest).toMatchObject({ number: 3, action: "reopened", isFork: true });
  });

  it("reads a release like a push: no pull request, the payload only for the visibility", () => {
    const context = readRunContext(
      env("release", { GITHUB_REF: "refs/tags/v2.0.0" }),
      files({ action: "published", release: { tag_name: "v2.0.0" } }),
    );
    expect(context.pullRequest).toBeUndefined();
  });

  it("reads a push without its payload", () => {
    const branch = readRunContext(env("push"), noFiles);
    expect(branch.pullRequest).toBeUndefined();
    expect(branch.sha).toBe("abc123");
    expect(branch.workspace).toBe("/work/space");
  });

  it("defaults to github.com and takes GitHub Enterprise Server URLs from the environment", () => {
    const cloud = readRunContext(env("push"), noFiles);
    expect(cloud.serverUrl).toBe("https://github.com");
    expect(cloud.apiUrl).toBe("https://api.github.com");

    const ghes = readRunContext(
      env("push", {
        GITHUB_SERVER_URL: "https://ghe.example/",
        GITHUB_API_URL: "https://ghe.example/api/v3",
      }),
      noFiles,
    );
    expect(ghes.serverUrl).toBe("https://ghe.example");
    expect(ghes.apiUrl).toBe("https://ghe.example/api/v3");
  });

  it("leaves the repository undefined when GITHUB_REPOSITORY is not owner/name", () => {
    const context = readRunContext(env("push", { GITHUB_REPOSITORY: "nonsense" }), noFiles);
    expect(context.repository).toBeUndefined();
  });

  it("names GITHUB_EVENT_PATH when the payload file is missing or invalid", () => {
    const missing = () => readRunContext(env("pull_request", { GITHUB_EVENT_PATH: "/nope.json" }), files({}));
    expect(missing).toThrow(EventPayloadError);
    expect(missing).toThrow(/GITHUB_EVENT_PATH \(\/nope\.json\).*ENOENT/);

    const unset = { ...env("pull_request") };
    delete unset.GITHUB_EVENT_PATH;
    expect(() => readRunContext(unset, noFiles)).toThrow(/GITHUB_EVENT_PATH is not set/);

    expect(() => readRunContext(env("pull_request"), () => "{not json")).toThrow(/not valid JSON/);
    expect(() => readRunContext(env("pull_request"), files({ action: "opened" }))).toThrow(
      /no "pull_request" object.*GITHUB_EVENT_PATH|GITHUB_EVENT_PATH.*no "pull_request" object/,
    );
  });
});

describe("repository visibility", () => {
  it("comes from the payload's repository.private, for any event, and is unknown without it", () => {
    const push = { repository: { full_name: "acme/api", private: true } };
    expect(readRunContext(env("push"), files(push)).repositoryVisibility).toBe("private");
    const release = { release: { tag_name: "v1" }, repository: { private: false } };
    expect(readRunContext(env("release"), files(release)).repositoryVisibility).toBe("public");
    expect(readRunContext(env("push"), files({})).repositoryVisibility).toBe("unknown");
    expect(readRunContext(env("workflow_dispatch"), noFiles).repositoryVisibility).toBe("unknown");
  });
});
