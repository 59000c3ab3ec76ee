import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import {
  commentMarker,
  findOwnComment,
  findTokenLogin,
  GitHubCommentError,
  isSameLogin,
  readCommentState,
  sanitizeCommentKey,
  upsertOwnComment,
  writeOwnComment,
} from "../../src/github/comment.ts";
import { createGitHubClient, type GitHubClient, GitHubDeadlineError } from "../../src/github/octokit.ts";

const TOKEN = "ghs_fakeTokenValue1234567890";
const target = { owner: "acme", repo: "api", issueNumber: 7, key: "default", author: "github-actions" };
const forAWhile = () => ({ deadline: Date.now() + 60_000 });

let fake: FakeGitHub;
let octokit: GitHubClient;

beforeEach(async () => {
  fake = await startFakeGitHub();
  octokit = createGitHubClient(TOKEN, fake.apiUrl, forAWhile());
});
afterEach(async () => {
  await fake.close();
});

function body(text: string, key = "default"): string {
  return `${commentMarker(key)}\n${text}`;
}

describe("upsertOwnComment", () => {
  it("creates the comment on the first run and edits the same one afterwards", async () => {
    const first = await upsertOwnComment(octokit, { ...target, body: body("one") });
    expect(first.action).toBe("created");
    const second = await upsertOwnComment(octokit, { ...target, body: body("two") });
    expect(second.action).toBe("updated");
    if (first.action === "forbidden" || second.action === "forbidden") throw new Error("unexpected");
    expect(second.id).toBe(first.id);
    expect(second.url).toContain(`#issuecomment-${first.id}`);

    const comments = fake.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toBe(body("two"));
    const patches = fake.requests.filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.path)).toEqual([`/repos/acme/api/issues/comments/${first.id}`]);
  });

  it("does not edit the comment when the body is unchanged", async () => {
    await upsertOwnComment(octokit, { ...target, body: body("same") });
    const again = await upsertOwnComment(octokit, { ...target, body: body("same") });
    expect(again.action).toBe("unchanged");
    expect(fake.requests.filter((r) => r.method === "PATCH" || r.method === "POST")).toHaveLength(1);
    expect(fake.comments(7)).toHaveLength(1);
  });

  it("finds its comment on page 3 of 250 comments and does not duplicate it", async () => {
    fake.seedComments(
      7,
      Array.from({ length: 220 }, (_, i) => `chatter ${i}`),
    );
    const [ours] = fake.seedComments(7, [body("old")], { login: "github-actions[bot]", type: "Bot" });
    fake.seedComments(
      7,
      Array.from({ length: 29 }, (_, i) => `later ${i}`),
    );
    expect(fake.comments(7)).toHaveLength(250);

    const found = await findOwnComment(octokit, target);
    expect(found?.id).toBe(ours?.id);

    const result = await upsertOwnComment(octokit, { ...target, body: body("new") });
    expect(result).toMatchObject({ action: "updated", id: ours?.id });
    expect(fake.comments(7)).toHaveLength(250);
    const pagesRead = fake.requests
      .filter((r) => r.method === "GET")
      .map((r) => new URL(r.url, "http://x").searchParams.get("page") ?? "1");
    expect(pagesRead).toContain("3");
    expect(fake.requests.every((r) => !r.url.includes("per_page") || r.url.includes("per_page=100"))).toBe(
      true,
    );
  });

  it("keeps one comment per comment-key", async () => {
    await upsertOwnComment(octokit, { ...target, key: "docs", body: body("docs", "docs") });
    await upsertOwnComment(octokit, { ...target, key: "internal", body: body("internal", "internal") });
    await upsertOwnComment(octokit, { ...target, key: "docs", body: body("docs 2", "docs") });
    const bodies = fake.comments(7).map((c) => c.body);
    expect(bodies).toEqual([body("docs 2", "docs"), body("internal", "internal")]);
  });

  it("returns forbidden instead of throwing when GitHub answers 403", async () => {
    fake.forbidWrites(true);
    const result = await upsertOwnComment(octokit, { ...target, body: body("x") });
    expect(result.action).toBe("forbidden");
    if (result.action !== "forbidden") throw new Error("unexpected");
    expect(result.message).toContain("pull-requests: write");
    expect(result.message).toContain("Resource not accessible by integration");
    expect(fake.comments(7)).toHaveLength(0);
  });

  it("throws a typed error naming the call for other failures", async () => {
    const broken = createGitHubClient(TOKEN, `${fake.apiUrl}/nowhere`, forAWhile());
    const error = await upsertOwnComment(broken, { ...target, body: body("x") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubCommentError);
    expect((error as GitHubCommentError).status).toBe(404);
    expect((error as Error).message).toContain("list the comments of acme/api#7");
  });

  it("sends the token only in the Authorization header, never to /user", async () => {
    await upsertOwnComment(octokit, { ...target, body: body("a") });
    await upsertOwnComment(octokit, { ...target, body: body("b") });
    fake.forbidWrites(true);
    const forbidden = await upsertOwnComment(octokit, { ...target, body: body("c") });

    expect(fake.requests.length).toBeGreaterThan(0);
    for (const request of fake.requests) {
      expect(request.authorization).toBe(`token ${TOKEN}`);
      expect(request.body).not.toContain(TOKEN);
      expect(request.path).not.toBe("/user");
      expect(request.path.startsWith("/repos/acme/api/issues/")).toBe(true);
    }
    expect(JSON.stringify(forbidden)).not.toContain(TOKEN);

    const broken = createGitHubClient(TOKEN, `${fake.apiUrl}/nowhere`, forAWhile());
    const error = await upsertOwnComment(broken, { ...target, body: body("x") }).catch((e: unknown) => e);
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });

  it("works under a GitHub Enterprise Server path prefix", async () => {
    const ghes = await startFakeGitHub({ pathPrefix: "/api/v3" });
    try {
      const client = createGitHubClient(TOKEN, ghes.apiUrl, forAWhile());
      const result = await upsertOwnComment(client, { ...target, body: body("ghes") });
      expect(result.action).toBe("created");
      expect(ghes.requests.every((r) => r.url.startsWith("/api/v3/"))).toBe(true);
    } finally {
      await ghes.close();
    }
  });
});

describe("whose comment is ours (issue 8, item 1)", () => {
  it("never takes a stranger's or another bot's comment carrying our marker for ours", async () => {
    const forged = body('<!-- gitbook-openapi-action-state:default {"previews":["api-one"]} -->');
    const [stranger] = fake.seedComments(7, [forged]);
    const [otherBot] = fake.seedComments(7, [forged], { login: "renovate[bot]", type: "Bot" });

    expect(await findOwnComment(octokit, target)).toBeUndefined();
    const result = await upsertOwnComment(octokit, { ...target, body: body("ours") });

    expect(result.action).toBe("created");
    expect(fake.requests.filter((r) => r.method === "PATCH")).toEqual([]);
    const comments = fake.comments(7);
    expect(comments.find((c) => c.id === stranger?.id)?.body).toBe(forged);
    expect(comments.find((c) => c.id === otherBot?.id)?.body).toBe(forged);
    expect(comments.at(-1)?.user.login).toBe("github-actions[bot]");
  });

  it("matches the token's login with and without [bot], in any case", () => {
    expect(isSameLogin("github-actions[bot]", "github-actions")).toBe(true);
    expect(isSameLogin("GitHub-Actions[bot]", "github-actions[bot]")).toBe(true);
    expect(isSameLogin("octocat", "OctoCat")).toBe(true);
    expect(isSameLogin("github-actions-x[bot]", "github-actions")).toBe(false);
    expect(isSameLogin("someone", "github-actions")).toBe(false);
    expect(isSameLogin(undefined, "github-actions")).toBe(false);
  });

  it("asks GraphQL's viewer for the token's login, under a GHES prefix too", async () => {
    expect(await findTokenLogin(octokit)).toBe("github-actions");
    const ghes = await startFakeGitHub({ pathPrefix: "/api/v3", viewerLogin: "deploy-app" });
    try {
      expect(await findTokenLogin(createGitHubClient(TOKEN, ghes.apiUrl, forAWhile()))).toBe("deploy-app");
      expect(ghes.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/graphql"]);
    } finally {
      await ghes.close();
    }
  });

  it("finds again just before creating, so a comment another run created meanwhile is edited", async () => {
    const target7 = { ...target, body: body("second run") };
    // What another run did between this run's lookup and its write:
    fake.seedComments(7, [body("first run")], { login: "github-actions[bot]", type: "Bot" });
    const result = await writeOwnComment(octokit, target7, undefined);
    expect(result.action).toBe("updated");
    expect(fake.comments(7).map((c) => c.body)).toEqual([body("second run")]);
  });
});

describe("GitHub calls are bounded (issue 8, item 4)", () => {
  it("gives up on a GitHub that never answers by the deadline", async () => {
    const hanging = await startFakeGitHub({ hang: true });
    try {
      const client = createGitHubClient(TOKEN, hanging.apiUrl, { deadline: Date.now() + 1_500 });
      const started = Date.now();
      const error = await findOwnComment(client, target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitHubDeadlineError);
      expect((error as Error).message).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/api\/issues\/7\/comments/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
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
    fake.seedComments(7, [body("other", "default-2")]);
    expect(await findOwnComment(octokit, target)).toBeUndefined();
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
