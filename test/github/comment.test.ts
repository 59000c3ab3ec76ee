import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeGitHub, GITHUB_ACTIONS_BOT, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { createGitHubClient, type GitHubClient, graphqlUrl } from "../../src/adapters/github/api.ts";
import {
  commentMarker,
  findTokenIdentity,
  githubCommentStore,
  pullRequestThread,
  readCommentState,
  sanitizeCommentKey,
} from "../../src/adapters/github/comment.ts";
import { ReviewHostDeadlineError } from "../../src/adapters/review-host/host-client.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { ReviewRun } from "../../src/core/ports.ts";
import { renderCommentState } from "../../src/core/report/comment-state.ts";
import { findOwnComments } from "../../src/core/review-thread/thread.ts";

const TOKEN = "ghs_fakeTokenValue1234567890";
const target = { owner: "acme", repo: "api", issueNumber: 7 };
const BOT = { id: GITHUB_ACTIONS_BOT.id, kind: "Bot" };
const forAWhile = () => ({ deadline: Date.now() + 60_000, retryDelayMs: 5 });

let fake: FakeGitHub;
let client: GitHubClient;
let logger: MemoryLogger;

beforeEach(async () => {
  fake = await startFakeGitHub();
  client = createGitHubClient(TOKEN, fake.apiUrl, forAWhile());
  logger = new MemoryLogger();
});
afterEach(async () => {
  await fake.close();
});

function thread(key = "default", on: GitHubClient = client) {
  return pullRequestThread({ client: on, target, key, logger });
}

function preview(...slugs: string[]): ReviewRun {
  return {
    mode: "preview",
    results: slugs.map((slug) => ({
      file: `${slug}.yaml`,
      slug,
      status: "published",
      specId: slug,
      errors: [],
    })),
  };
}

const writes = () =>
  fake.requests.filter((r) => ["POST", "PATCH", "DELETE"].includes(r.method) && r.path !== "/graphql");
const ours = (key = "default") =>
  fake
    .comments(7)
    .filter(
      (c) =>
        c.user.id === GITHUB_ACTIONS_BOT.id && c.user.type === "Bot" && c.body.includes(commentMarker(key)),
    );
const forged = (previews: string[]) =>
  `${commentMarker("default")}\nforged\n${renderCommentState("default", { previews })}`;

describe("the pull request comment", () => {
  it("is created on the first run and edited in place afterwards", async () => {
    const first = await thread().publish(preview("pets-pr-7"));
    const [created] = fake.comments(7);
    expect(first).toBe(created?.html_url);
    expect(created?.user).toEqual({ login: "github-actions[bot]", id: GITHUB_ACTIONS_BOT.id, type: "Bot" });

    const second = await thread().publish(preview("pets-pr-7", "shop-pr-7"));
    expect(second).toBe(first);
    expect(fake.comments(7)).toHaveLength(1);
    expect(readCommentState(fake.comments(7)[0]?.body ?? "", "default")?.previews).toEqual([
      "pets-pr-7",
      "shop-pr-7",
    ]);
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /repos/acme/api/issues/7/comments",
      `PATCH /repos/acme/api/issues/comments/${created?.id}`,
    ]);
    expect(logger.messages("info")).toEqual([
      `Pull request comment created: ${first}`,
      `Pull request comment updated: ${first}`,
    ]);
  });

  it("is not edited when the body is unchanged", async () => {
    await thread().publish(preview("pets-pr-7"));
    await thread().publish(preview("pets-pr-7"));
    expect(writes()).toHaveLength(1);
    expect(logger.messages("info")[1]).toMatch(/^Pull request comment unchanged: /);
  });

  it("is found on page 3 of 250 comments, 100 a page, and not duplicated", async () => {
    fake.seedComments(
      7,
      Array.from({ length: 220 }, (_, i) => `chatter ${i}`),
    );
    const [old] = fake.seedComments(7, [forged(["old-pr-7"])], GITHUB_ACTIONS_BOT);
    fake.seedComments(
      7,
      Array.from({ length: 29 }, (_, i) => `later ${i}`),
    );

    const review = thread();
    expect(await review.recordedPreviews()).toEqual(["old-pr-7"]);
    await review.publish(preview("pets-pr-7"));
    expect(fake.comments(7)).toHaveLength(250);
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /repos/acme/api/issues/comments/${old?.id}`,
    ]);
    const pages = fake.requests
      .filter((r) => r.method === "GET")
      .map((r) => new URL(r.url, "http://x").searchParams.get("page"));
    expect(pages).toEqual([null, "2", "3"]);
    expect(fake.requests.filter((r) => r.method === "GET").every((r) => r.url.includes("per_page=100"))).toBe(
      true,
    );
  });

  it("is one per comment-key", async () => {
    await thread("docs").publish(preview("a-pr-7"));
    await thread("internal").publish(preview("b-pr-7"));
    await thread("docs").publish(preview("a-pr-7", "c-pr-7"));
    expect(ours("docs")).toHaveLength(1);
    expect(ours("internal")).toHaveLength(1);
    expect(fake.comments(7)).toHaveLength(2);
  });

  it("is skipped with a warning naming the permission when GitHub answers 403", async () => {
    fake.forbidWrites(true);
    expect(await thread().publish(preview("pets-pr-7"))).toBeUndefined();
    const [warning] = logger.messages("warning");
    expect(warning).toMatch(
      /^Could not write the pull request comment: GitHub POST \/repos\/acme\/api\/issues\/7\/comments answered HTTP 403: Resource not accessible by integration/,
    );
    expect(warning).toContain("permissions: pull-requests: write");
    expect(fake.comments(7)).toHaveLength(0);
    // A refusal is an answer: nothing was applied, so nothing is retried or looked for again.
    expect(writes()).toHaveLength(1);
  });

  it("warns, naming the call and the status, when the comments cannot be read", async () => {
    const review = thread("default", createGitHubClient(TOKEN, `${fake.apiUrl}/nowhere`, forAWhile()));
    expect(await review.recordedPreviews()).toEqual([]);
    expect(logger.messages("warning")).toEqual([
      expect.stringMatching(/^Could not find which GitHub identity the 'github-token' acts as/),
    ]);
    const identified = thread();
    fake.fail({ method: "GET" }, { status: 404 }, 10);
    expect(await identified.recordedPreviews()).toEqual([]);
    expect(logger.messages("warning")[1]).toBe(
      "Could not read the pull request comment: GitHub GET /repos/acme/api/issues/7/comments answered HTTP 404: 404 fault injected",
    );
  });

  it("sends the token only in the Authorization header, never to /user", async () => {
    await thread().publish(preview("a-pr-7"));
    await thread().publish(preview("a-pr-7", "b-pr-7"));
    fake.forbidWrites(true);
    await thread().publish(preview("c-pr-7"));

    expect(fake.requests.length).toBeGreaterThan(4);
    for (const request of fake.requests) {
      expect(request.authorization).toBe(`token ${TOKEN}`);
      expect(request.body).not.toContain(TOKEN);
      expect(request.path).not.toBe("/user");
    }
    expect(logger.entries.map((e) => e.message).join("\n")).not.toContain(TOKEN);
  });

  it("works under a GitHub Enterprise Server path prefix, GraphQL at /api/graphql", async () => {
    const ghes = await startFakeGitHub({ pathPrefix: "/api/v3" });
    try {
      const on = createGitHubClient(TOKEN, ghes.apiUrl, forAWhile());
      expect(await thread("default", on).publish(preview("pets-pr-7"))).toBeDefined();
      expect(ghes.comments(7)).toHaveLength(1);
      expect(ghes.requests.map((r) => r.url.replace(/\?.*$/, ""))).toEqual([
        "/api/graphql",
        "/api/v3/repos/acme/api/issues/7/comments",
        "/api/v3/repos/acme/api/issues/7/comments",
        "/api/v3/repos/acme/api/issues/7/comments",
      ]);
    } finally {
      await ghes.close();
    }
    expect(graphqlUrl("https://api.github.com")).toBe("https://api.github.com/graphql");
    expect(graphqlUrl("https://ghe.example/api/v3/")).toBe("https://ghe.example/api/graphql");
  });
});

describe("whose comment is ours (issue 16, item 7)", () => {
  it("never reads or edits a comment with our marker by anyone but the token's account", async () => {
    const record = forged(["prod-api"]);
    const strangers = [
      ...fake.seedComments(7, [record]),
      ...fake.seedComments(7, [record], { login: "renovate[bot]", type: "Bot" }),
      // A user account that took the bot's login without its suffix: the login matches, the account does not.
      ...fake.seedComments(7, [record], { login: "github-actions", type: "User" }),
      // The bot's id under another kind of account: only a lying server would say so; not ours either.
      ...fake.seedComments(7, [record], {
        login: "github-actions[bot]",
        type: "User",
        id: GITHUB_ACTIONS_BOT.id,
      }),
    ];

    const review = thread();
    expect(await review.recordedPreviews()).toEqual([]);
    const url = await review.publish(preview("pets-pr-7"));

    expect(writes().map((r) => r.method)).toEqual(["POST"]);
    for (const stranger of strangers) {
      expect(fake.comments(7).find((c) => c.id === stranger.id)?.body).toBe(record);
    }
    expect(ours()).toHaveLength(1);
    expect(url).toBe(ours()[0]?.html_url);
  });

  it("asks GraphQL's viewer for the account id, and takes a [bot] login for a bot account", async () => {
    expect(await findTokenIdentity(client)).toEqual({ login: "github-actions[bot]", ...BOT });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /graphql"]);
    expect(JSON.parse(fake.requests[0]?.body ?? "{}")).toEqual({
      query: "query { viewer { login databaseId __typename } }",
    });

    const app = await startFakeGitHub({
      viewer: { login: "deploy-app[bot]", type: "Bot" },
      viewerTypename: "Bot",
    });
    const person = await startFakeGitHub({ viewer: { login: "octocat", type: "User" } });
    try {
      const appIdentity = await findTokenIdentity(createGitHubClient(TOKEN, app.apiUrl, forAWhile()));
      expect(appIdentity).toMatchObject({ login: "deploy-app[bot]", kind: "Bot" });
      const personal = createGitHubClient(TOKEN, person.apiUrl, forAWhile());
      const identity = await findTokenIdentity(personal);
      expect(identity).toMatchObject({ login: "octocat", kind: "User" });
      // A personal token's comments are a user's: found as ours by that user's id.
      const [mine] = person.seedComments(7, [forged(["pets-pr-7"])], { login: "octocat", type: "User" });
      const found = await findOwnComments(githubCommentStore(personal, target), "default", identity);
      expect(found.map((c) => c.id)).toEqual([mine?.id]);
    } finally {
      await app.close();
      await person.close();
    }
  });
});

describe("GitHub calls are bounded", () => {
  it("give up on a GitHub that never answers by the deadline", async () => {
    const hanging = await startFakeGitHub({ hang: true });
    try {
      const on = createGitHubClient(TOKEN, hanging.apiUrl, { deadline: Date.now() + 1_000 });
      const store = githubCommentStore(on, target);
      const error = await findOwnComments(store, "default", BOT).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReviewHostDeadlineError);
      expect((error as Error).message).toMatch(
        /^GitHub GET \/repos\/acme\/api\/issues\/7\/comments got no answer within 1 s\.$/,
      );
    } finally {
      await hanging.close();
    }
  });
});

describe("markers and state", () => {
  it("sanitizes the comment key", () => {
    expect(sanitizeCommentKey(undefined)).toBe("default");
    expect(sanitizeCommentKey("  ")).toBe("default");
    expect(sanitizeCommentKey("my key --> <b>")).toBe("my-key-b");
    expect(sanitizeCommentKey("x".repeat(100))).toHaveLength(64);
    expect(commentMarker("a b")).toBe("<!-- gitbook-openapi-action:a-b -->");
  });

  it("does not mistake another key's marker for its own", async () => {
    fake.seedComments(7, [`${commentMarker("default-2")}\nother`], GITHUB_ACTIONS_BOT);
    expect(await findOwnComments(githubCommentStore(client, target), "default", BOT)).toEqual([]);
  });

  it("ignores missing or malformed state", () => {
    expect(readCommentState("no state here")).toBeUndefined();
    expect(readCommentState('<!-- gitbook-openapi-action:k:state {"previews":[1]} -->')).toBeUndefined();
    expect(readCommentState('<!-- gitbook-openapi-action:k:state {"previews":["a"]} -->', "other")).toBe(
      undefined,
    );
    expect(readCommentState('<!-- gitbook-openapi-action:k:state {"previews":["a"]} -->', "k")).toEqual({
      previews: ["a"],
    });
  });
});
