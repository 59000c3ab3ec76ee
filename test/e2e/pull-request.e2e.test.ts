/**
 * Pull requests and releases, end to end: the action against the emulator and a fake GitHub REST
 * server, both on loopback sockets.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import type { FakeGitHub } from "../../harness/fakes/fake-github.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { readCommentState } from "../../src/adapters/github/comment.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GITHUB_TOKEN = "ghs_fakeGitHubToken123";

async function setUp(options: { pathPrefix?: string; files?: Record<string, string> } = {}) {
  const api = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 } });
  const github = await startFakeGitHub(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {});
  const workspace = await emptyWorkspace(
    options.files ?? { "openapi.yaml": minimalSpec("Widgets"), "api/billing.yaml": minimalSpec("Billing") },
  );
  cleanups.push(
    () => api.close(),
    () => github.close(),
    () => removeWorkspace(workspace),
  );
  return { api, github, workspace };
}

function pullRequestEvent(action: string, options: { fork?: boolean; merged?: boolean } = {}) {
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      merged: options.merged ?? false,
      head: {
        sha: "b".repeat(40),
        ref: "feature",
        repo: { full_name: options.fork ? "someone/widgets" : "acme/widgets" },
      },
      base: { ref: "main", repo: { full_name: "acme/widgets" } },
    },
  };
}

function run(
  setup: { api: RunningEmulator; github: FakeGitHub; workspace: string },
  event: { name: string; payload: unknown },
  inputs: Record<string, string> = {},
) {
  return runActionInProcess({
    workspace: setup.workspace,
    inputs: { token: setup.api.token, organization: "demo-org", "api-url": setup.api.baseUrl, ...inputs },
    githubToken: GITHUB_TOKEN,
    eventName: event.name,
    eventPayload: event.payload,
    env: {
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_SHA: "c".repeat(40),
      GITHUB_RUN_ID: "42",
      GITHUB_API_URL: setup.github.apiUrl,
      GITHUB_SERVER_URL: setup.github.apiUrl.replace(/\/api\/v3$/, ""),
    },
  });
}

const results = (outputs: Record<string, string>) =>
  JSON.parse(outputs.results ?? "[]") as {
    file: string;
    slug: string;
    status: string;
    specVersion: string | null;
  }[];

describe("pull requests, end to end", () => {
  it("publishes previews and keeps one living comment: created, then edited in place", async () => {
    const setup = await setUp();
    const first = await run(setup, { name: "pull_request", payload: pullRequestEvent("opened") });

    expect(first.exitCode).toBe(0);
    expect(first.outputs.mode).toBe("preview");
    expect(results(first.outputs).map((r) => [r.slug, r.status])).toEqual([
      ["api-billing-pr-7", "published"],
      ["widgets-pr-7", "published"],
    ]);
    expect(
      setup.api
        .listSpecs("demo-org")
        .map((s) => s.slug)
        .sort(),
    ).toEqual(["api-billing-pr-7", "widgets-pr-7"]);
    const [comment] = setup.github.comments(7);
    expect(setup.github.comments(7)).toHaveLength(1);
    expect(first.outputs["comment-url"]).toBe(comment?.html_url);
    expect(comment?.body).toContain("<!-- gitbook-openapi-action:default -->");
    expect(comment?.body).toContain("widgets-pr-7");
    expect(readCommentState(comment?.body ?? "")?.previews).toEqual(["api-billing-pr-7", "widgets-pr-7"]);
    expect(setup.github.requests.every((r) => r.authorization === `token ${GITHUB_TOKEN}`)).toBe(true);
    expect(setup.github.requests.some((r) => r.path === "/user")).toBe(false);

    const second = await run(setup, { name: "pull_request", payload: pullRequestEvent("synchronize") });
    expect(second.exitCode).toBe(0);
    expect(setup.github.comments(7)).toHaveLength(1);
    expect(setup.github.comments(7)[0]?.id).toBe(comment?.id);
    expect(setup.github.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(setup.github.comments(7)[0]?.body).not.toContain(GITHUB_TOKEN);
    expect(setup.github.comments(7)[0]?.body).not.toContain(setup.api.token);
  });

  it("finds its comment among more than 100 earlier comments and never duplicates it", async () => {
    const setup = await setUp({ files: { "openapi.yaml": minimalSpec("Widgets") } });
    setup.github.seedComments(
      7,
      Array.from({ length: 150 }, (_, i) => `comment ${i}`),
    );
    await run(setup, { name: "pull_request", payload: pullRequestEvent("opened") });
    await run(setup, { name: "pull_request", payload: pullRequestEvent("synchronize") });
    const ours = setup.github.comments(7).filter((c) => c.body.includes("gitbook-openapi-action:default"));
    expect(setup.github.comments(7)).toHaveLength(151);
    expect(ours).toHaveLength(1);
    expect(
      setup.github.requests.filter((r) => r.method === "GET" && r.url.includes("page=2")).length,
    ).toBeGreaterThan(0);
    // Each run pages through the comments once, and the first run once more just before it creates its
    // comment (another run may have created it meanwhile): the first page is read three times.
    const firstPages = setup.github.requests.filter((r) => r.method === "GET" && !/[?&]page=/.test(r.url));
    expect(firstPages).toHaveLength(3);
  });

  it("keeps a separate comment per comment-key", async () => {
    const setup = await setUp({ files: { "openapi.yaml": minimalSpec("Widgets") } });
    await run(
      setup,
      { name: "pull_request", payload: pullRequestEvent("opened") },
      { "comment-key": "public" },
    );
    await run(
      setup,
      { name: "pull_request", payload: pullRequestEvent("opened") },
      { "comment-key": "internal" },
    );
    expect(setup.github.comments(7)).toHaveLength(2);
  });

  it("warns but does not fail when the token may not comment", async () => {
    const setup = await setUp({ files: { "openapi.yaml": minimalSpec("Widgets") } });
    setup.github.forbidWrites(true);
    const result = await run(setup, { name: "pull_request", payload: pullRequestEvent("opened") });
    expect(result.exitCode).toBe(0);
    expect(result.outputs["comment-url"]).toBeUndefined();
    const warning = result.annotations.find((a) => a.level === "warning");
    expect(warning?.message).toContain("Could not write the pull request comment");
    expect(warning?.message).toContain("pull-requests: write");
  });

  it("skips a fork's pull request, which gets no secrets, with a notice and success", async () => {
    const setup = await setUp({ files: { "openapi.yaml": minimalSpec("Widgets") } });
    const result = await run(
      setup,
      { name: "pull_request", payload: pullRequestEvent("opened", { fork: true }) },
      { token: "" },
    );
    expect(result.exitCode).toBe(0);
    expect(result.annotations.find((a) => a.level === "notice")?.message).toContain("comes from a fork");
    expect(setup.api.requests).toHaveLength(0);
    expect(result.summary).toContain("skipped");
  });

  it("deletes the previews when the pull request closes, including one only an earlier run recorded", async () => {
    const setup = await setUp();
    await run(setup, { name: "pull_request", payload: pullRequestEvent("opened") });
    expect(setup.api.listSpecs("demo-org")).toHaveLength(2);
    await rm(path.join(setup.workspace, "api", "billing.yaml"));

    const closed = await run(setup, {
      name: "pull_request",
      payload: pullRequestEvent("closed", { merged: true }),
    });
    expect(closed.exitCode).toBe(0);
    expect(closed.outputs.mode).toBe("cleanup");
    expect(
      results(closed.outputs)
        .map((r) => [r.slug, r.status])
        .sort(),
    ).toEqual([
      ["api-billing-pr-7", "deleted"],
      ["widgets-pr-7", "deleted"],
    ]);
    expect(setup.api.listSpecs("demo-org")).toEqual([]);
    const body = setup.github.comments(7)[0]?.body ?? "";
    expect(body).toContain("api-billing-pr-7");
    expect(body.toLowerCase()).toContain("deleted");
    expect(readCommentState(body)?.previews).toEqual([]);
  });

  it("works on GitHub Enterprise Server, with the API URL from the runner's environment", async () => {
    const setup = await setUp({ pathPrefix: "/api/v3", files: { "openapi.yaml": minimalSpec("Widgets") } });
    const result = await run(setup, { name: "pull_request_target", payload: pullRequestEvent("opened") });
    expect(result.exitCode).toBe(0);
    expect(setup.github.comments(7)).toHaveLength(1);
    // REST under /api/v3, GraphQL (the token's identity) at /api/graphql, as GHES serves them.
    for (const r of setup.github.requests) {
      expect(r.url.startsWith("/api/v3/") || `${r.method} ${r.url}` === "POST /api/graphql").toBe(true);
    }
    expect(setup.github.requests.filter((r) => r.url === "/api/graphql")).not.toHaveLength(0);
  });
});

describe("releases, end to end", () => {
  it("publishes on a release and carries each spec's info.version and version URL", async () => {
    const setup = await setUp({
      files: { "openapi.yaml": "openapi: 3.1.0\ninfo:\n  title: W\n  version: 3.2.1\npaths: {}\n" },
    });
    const result = await run(setup, {
      name: "release",
      payload: { action: "published", release: { tag_name: "v3.2.1" } },
    });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.mode).toBe("publish");
    const [spec] = results(result.outputs);
    expect(spec).toMatchObject({ slug: "widgets", status: "published", specVersion: "3.2.1" });
    expect(String((spec as Record<string, unknown>).versionUrl)).toMatch(/^http/);
    expect(result.summary).toContain("| 3.2.1 |");
    expect(setup.github.requests).toHaveLength(0);
  });
});
