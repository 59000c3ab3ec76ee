import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  FAKE_GITLAB_BOT,
  FAKE_GITLAB_STRANGER,
  FAKE_GITLAB_TOKEN,
  type FakeGitLab,
  startFakeGitLab,
} from "../../harness/fakes/fake-gitlab.ts";
import type { PullRequestComments } from "../../src/adapters/github/pull-request-thread.ts";
import { createGitLabClient } from "../../src/adapters/gitlab/api.ts";
import type { GitLabContext } from "../../src/adapters/gitlab/context.ts";
import { createMergeRequestNotes, findTokenUser, gitlabNoteStore } from "../../src/adapters/gitlab/notes.ts";
import { nextPage } from "../../src/adapters/review-host/host-client.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { commentMarker, readCommentState, renderCommentState } from "../../src/core/report/comment-state.ts";
import type { ReviewComments, ReviewRun } from "../../src/core/report/review-comment.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { findOwnComments } from "../../src/core/review-thread/thread.ts";

const IID = 12;

let fake: FakeGitLab;
let logger: MemoryLogger;

beforeEach(async () => {
  fake = await startFakeGitLab();
  logger = new MemoryLogger();
});
afterEach(async () => {
  await fake.close();
});

function context(overrides: Partial<GitLabContext> = {}): GitLabContext {
  return {
    apiUrl: fake.apiUrl,
    projectId: "77",
    projectPath: "acme/api",
    repositoryName: "api",
    projectUrl: "https://gitlab.example/acme/api",
    defaultBranch: "main",
    branch: undefined,
    tag: undefined,
    pipelineSource: "merge_request_event",
    pipelineUrl: undefined,
    workspace: "/builds/acme/api",
    mergeRequest: {
      iid: IID,
      sourceBranch: "feature",
      targetBranch: "main",
      diffBaseSha: undefined,
      isFork: false,
    },
    token: FAKE_GITLAB_TOKEN,
    hasJobToken: true,
    defaultMode: "preview",
    ...overrides,
  };
}

function notes(overrides: Partial<GitLabContext> = {}, extra: { deadline?: number } = {}) {
  const review = createMergeRequestNotes({
    context: context(overrides),
    commentKey: "default",
    logger,
    deadline: extra.deadline ?? Date.now() + 30_000,
    retryDelayMs: 10,
  });
  if (!review) throw new Error("expected a review port");
  return review;
}

function preview(...slugs: string[]): ReviewRun {
  const results: SpecResult[] = slugs.map((slug) => ({
    file: `specs/${slug}.yaml`,
    slug,
    status: "published",
    specId: `id-${slug}`,
    errors: [],
  }));
  return { mode: "preview", results };
}

const writes = () => fake.requests.filter((r) => r.method === "POST" || r.method === "PUT");

describe("createMergeRequestNotes", () => {
  it("creates one note on the first run and edits it in place on the next", async () => {
    const url = await notes().publish(preview("pets-mr-12"));
    const [created] = fake.notes(IID);
    expect(created?.author.id).toBe(FAKE_GITLAB_BOT.id);
    expect(url).toBe(`https://gitlab.example/acme/api/-/merge_requests/12#note_${created?.id}`);
    expect(created?.body).toContain(commentMarker("default"));
    expect(created?.body).toContain("(preview for !12)");

    const again = await notes().publish(preview("pets-mr-12", "shop-mr-12"));
    expect(again).toBe(url);
    expect(fake.notes(IID)).toHaveLength(1);
    expect(readCommentState(fake.notes(IID)[0]?.body ?? "", "default")?.previews).toEqual([
      "pets-mr-12",
      "shop-mr-12",
    ]);
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /projects/77/merge_requests/12/notes",
      `PUT /projects/77/merge_requests/12/notes/${created?.id}`,
    ]);
    expect(logger.messages("info")).toEqual([
      `Merge request note created: ${url}`,
      `Merge request note updated: ${url}`,
    ]);
  });

  it("leaves an unchanged note alone", async () => {
    await notes().publish(preview("pets-mr-12"));
    await notes().publish(preview("pets-mr-12"));
    expect(writes()).toHaveLength(1);
    expect(logger.messages("info")[1]).toMatch(/^Merge request note unchanged: /);
  });

  it("reads back the previews recorded by earlier runs, for cleanup", async () => {
    await notes().publish(preview("pets-mr-12", "shop-mr-12"));
    expect(await notes().recordedPreviews()).toEqual(["pets-mr-12", "shop-mr-12"]);

    const cleanup = notes();
    const url = await cleanup.publish({
      mode: "cleanup",
      results: [
        { file: "", slug: "pets-mr-12", status: "deleted", errors: [] },
        { file: "", slug: "shop-mr-12", status: "failed", errors: ["HTTP 500"] },
      ],
    });
    expect(url).toBeDefined();
    const body = fake.notes(IID)[0]?.body ?? "";
    expect(body).toContain("1 of 2 preview specs of !12 could not be deleted");
    expect(readCommentState(body, "default")?.previews).toEqual(["shop-mr-12"]);
  });

  it.each(["both", "x-next-page", "link"] as const)(
    "finds its note on page 3 of 250 notes (pagination headers: %s)",
    async (pagination) => {
      await fake.close();
      fake = await startFakeGitLab({ pagination });
      fake.seedNotes(
        IID,
        Array.from({ length: 220 }, (_, i) => `chatter ${i}`),
      );
      const [ours] = fake.seedNotes(
        IID,
        [`${commentMarker("default")}\nold\n${renderCommentState("default", { previews: ["old-mr-12"] })}`],
        FAKE_GITLAB_BOT,
      );
      fake.seedNotes(
        IID,
        Array.from({ length: 29 }, (_, i) => `later ${i}`),
      );

      const review = notes();
      expect(await review.recordedPreviews()).toEqual(["old-mr-12"]);
      await review.publish(preview("pets-mr-12"));
      expect(fake.notes(IID)).toHaveLength(250);
      expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
        `PUT /projects/77/merge_requests/12/notes/${ours?.id}`,
      ]);
      const pages = fake.requests
        .filter((r) => r.method === "GET" && r.path.endsWith("/notes"))
        .map((r) => new URL(r.url, "http://x").searchParams.get("page"));
      expect(pages).toEqual(["1", "2", "3"]);
    },
  );

  it("never touches a stranger's note that carries the marker, nor believes its state", async () => {
    const forged = `${commentMarker("default")}\nforged\n${renderCommentState("default", { previews: ["prod-api"] })}`;
    const [stranger] = fake.seedNotes(IID, [forged], FAKE_GITLAB_STRANGER);

    const review = notes();
    expect(await review.recordedPreviews()).toEqual([]);
    await review.publish(preview("pets-mr-12"));

    const all = fake.notes(IID);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ id: stranger?.id, body: forged });
    expect(all[1]?.author.id).toBe(FAKE_GITLAB_BOT.id);
    expect(writes().some((r) => r.path.endsWith(`/${stranger?.id}`))).toBe(false);
  });

  it("never takes a note for ours by its author's username: only the token user's id counts", async () => {
    const lookalike = { id: FAKE_GITLAB_BOT.id + 1, username: FAKE_GITLAB_BOT.username };
    const forged = `${commentMarker("default")}\nforged\n${renderCommentState("default", { previews: ["prod-api"] })}`;
    const [theirs] = fake.seedNotes(IID, [forged], lookalike);

    const review = notes();
    expect(await review.recordedPreviews()).toEqual([]);
    await review.publish(preview("pets-mr-12"));

    expect(fake.notes(IID).find((n) => n.id === theirs?.id)?.body).toBe(forged);
    expect(fake.notes(IID).filter((n) => n.author.id === FAKE_GITLAB_BOT.id)).toHaveLength(1);
    expect(writes().some((r) => r.path.endsWith(`/${theirs?.id}`))).toBe(false);
  });

  it("skips system notes and notes of another comment-key", async () => {
    fake.seedNotes(IID, [commentMarker("default")], FAKE_GITLAB_BOT, { system: true });
    fake.seedNotes(IID, [`${commentMarker("other")}\nother instance`], FAKE_GITLAB_BOT);
    await notes().publish(preview("pets-mr-12"));
    expect(fake.notes(IID)).toHaveLength(3);
    expect(fake.notes(IID)[1]?.body).toBe(`${commentMarker("other")}\nother instance`);
  });

  it("retries a transient 502 on reads and edits", async () => {
    await notes().publish(preview("pets-mr-12"));
    fake.fail({ method: "GET", path: /\/user$/ }, { status: 502 });
    fake.fail({ method: "GET", path: /\/notes$/ }, { status: 503 });
    fake.fail({ method: "PUT" }, { status: 502 });
    const url = await notes().publish(preview("pets-mr-12", "shop-mr-12"));
    expect(url).toBeDefined();
    expect(logger.messages("warning")).toEqual([]);
    expect(fake.notes(IID)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "PUT")).toHaveLength(2);
  });

  it("does not send a POST twice when its answer was lost after GitLab applied it", async () => {
    fake.fail({ method: "POST" }, { applyThenStatus: 502 });
    const url = await notes().publish(preview("pets-mr-12"));
    expect(fake.notes(IID)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(url).toBe(`https://gitlab.example/acme/api/-/merge_requests/12#note_${fake.notes(IID)[0]?.id}`);
  });

  it("creates the note after a POST that failed without being applied, after looking again", async () => {
    fake.fail({ method: "POST" }, { status: 502 });
    await notes().publish(preview("pets-mr-12"));
    expect(fake.notes(IID)).toHaveLength(1);
    // Looked up, created (502, not applied), looked again, created, looked again for a duplicate.
    expect(fake.requests.map((r) => `${r.method} ${r.path.replace(/^.*\//, "")}`)).toEqual([
      "GET user",
      "GET notes",
      "POST notes",
      "GET notes",
      "POST notes",
      "GET notes",
    ]);
  });

  it("gives up at the deadline when GitLab hangs, with a warning", async () => {
    await fake.close();
    fake = await startFakeGitLab({ hang: true });
    const review = notes({ apiUrl: fake.apiUrl }, { deadline: Date.now() + 1_500 });
    expect(await review.publish(preview("pets-mr-12"))).toBeUndefined();
    expect(logger.messages("warning").join("\n")).toMatch(/GET \/user.*no answer within/);
  });

  it("warns about the token's rights when GitLab forbids the write", async () => {
    fake.fail({ method: "POST" }, { status: 403 });
    expect(await notes().publish(preview("pets-mr-12"))).toBeUndefined();
    const [warning] = logger.messages("warning");
    expect(warning).toContain("HTTP 403");
    expect(warning).toContain("api scope and at least the Reporter role");
  });

  it("sends the token only to the API URL, as PRIVATE-TOKEN", async () => {
    fake.seedNotes(
      IID,
      Array.from({ length: 150 }, (_, i) => `chatter ${i}`),
    );
    await notes().publish(preview("pets-mr-12"));
    expect(fake.requests.length).toBeGreaterThan(2);
    for (const request of fake.requests) {
      expect(request.privateToken).toBe(FAKE_GITLAB_TOKEN);
      expect(request.authorization).toBeUndefined();
      expect(request.url.startsWith("/api/v4/")).toBe(true);
      expect(request.url).not.toContain(FAKE_GITLAB_TOKEN);
    }
  });
});

describe("the review port", () => {
  it("has exactly the shape of GitHub's PullRequestComments", () => {
    expectTypeOf<ReviewComments>().toEqualTypeOf<PullRequestComments>();
    expectTypeOf(createMergeRequestNotes).returns.toEqualTypeOf<PullRequestComments | undefined>();
  });
});

describe("without a usable token", () => {
  it("is undefined outside a merge request", () => {
    const review = createMergeRequestNotes({
      context: context({ mergeRequest: undefined }),
      commentKey: "default",
      logger,
      deadline: Date.now() + 1000,
    });
    expect(review).toBeUndefined();
    expect(logger.entries).toEqual([]);
  });

  it("warns that CI_JOB_TOKEN cannot write notes when it is the only token", () => {
    const review = createMergeRequestNotes({
      context: context({ token: undefined, hasJobToken: true }),
      commentKey: "default",
      logger,
      deadline: Date.now() + 1000,
    });
    expect(review).toBeUndefined();
    const [warning] = logger.messages("warning");
    expect(warning).toContain("CI_JOB_TOKEN cannot write merge request notes");
    expect(warning).toContain("GITLAB_TOKEN");
    expect(fake.requests).toEqual([]);
  });

  it("takes the merge request from the option when the pipeline is not a merge request's", async () => {
    const review = createMergeRequestNotes({
      context: context({ mergeRequest: undefined }),
      mergeRequestIid: 31,
      commentKey: "default",
      logger,
      deadline: Date.now() + 30_000,
    });
    await review?.publish(preview("pets-mr-31"));
    expect(fake.notes(31)).toHaveLength(1);
  });
});

describe("the token never appears in messages", () => {
  it("not when GitLab refuses the token", async () => {
    const review = notes({ token: "glpat-unknownTokenValue-9876543210" });
    expect(await review.recordedPreviews()).toEqual([]);
    expect(await review.publish(preview("pets-mr-12"))).toBeUndefined();
    const text = logger.entries.map((e) => e.message).join("\n");
    expect(text).toContain("HTTP 401");
    expect(text).toContain("api scope");
    expect(text).not.toContain("glpat-unknownTokenValue");
    expect(text).not.toContain("unknownTokenValue-98");
  });

  it("not when a server echoes it back in its error, whole or cut", async () => {
    const token = "glpat-echoedSecretToken-000111222";
    const server = createServer((req, res) => {
      const sent = String(req.headers["private-token"]);
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `bad token ${sent} (${sent.slice(0, 14)}) ${sent.toUpperCase()}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
      const client = createGitLabClient({ apiUrl, token, deadline: Date.now() + 10_000, retryDelayMs: 1 });
      const error = await findTokenUser(client).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message).toContain("HTTP 500");
      expect(message).not.toContain("echoedSecret");
      expect(message.toLowerCase()).not.toContain("echoedsecret");
      expect(JSON.stringify(error)).not.toContain("echoedSecret");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("does not follow a redirect, which would carry PRIVATE-TOKEN to another origin", async () => {
    const elsewhere: string[] = [];
    const other = createServer((req, res) => {
      elsewhere.push(String(req.headers["private-token"]));
      res.writeHead(200, { "content-type": "application/json" }).end('{"id":1}');
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/user`;
    const redirecting = createServer((_req, res) => {
      res.writeHead(302, { location: otherUrl }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/api/v4`;
      const client = createGitLabClient({ apiUrl, token: FAKE_GITLAB_TOKEN, deadline: Date.now() + 10_000 });
      await expect(findTokenUser(client)).rejects.toThrow(/HTTP 302/);
      expect(elsewhere).toEqual([]);
    } finally {
      for (const server of [other, redirecting]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it("not in a refused connection's error", async () => {
    const token = "glpat-refusedConnToken-445566";
    const client = createGitLabClient({
      apiUrl: "http://127.0.0.1:1/api/v4",
      token,
      deadline: Date.now() + 10_000,
      retryDelayMs: 1,
    });
    const error = await findTokenUser(client).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^GitLab GET \/api\/v4\/user failed: /);
    expect((error as Error).message).not.toContain(token);
  });
});

describe("nextPage", () => {
  it("follows x-next-page, stops on an empty one, and takes only the page number from a Link", () => {
    expect(nextPage({ "x-next-page": "2" }, 1)).toBe(2);
    expect(nextPage({ "x-next-page": "", link: '<https://x/?page=9>; rel="next"' }, 1)).toBeUndefined();
    expect(nextPage({ link: '<https://evil.example/steal?page=4>; rel="next"' }, 3)).toBe(4);
    expect(nextPage({ "x-next-page": "1" }, 1)).toBeUndefined();
    expect(nextPage({ "x-next-page": "2; drop" }, 1)).toBeUndefined();
    expect(nextPage({}, 1)).toBeUndefined();
  });

  it("bounds the pages read rather than answering 'none' and duplicating the note", async () => {
    fake.seedNotes(
      IID,
      Array.from({ length: 350 }, (_, i) => `chatter ${i}`),
    );
    const client = createGitLabClient({
      apiUrl: fake.apiUrl,
      token: FAKE_GITLAB_TOKEN,
      deadline: Date.now() + 10_000,
    });
    const store = gitlabNoteStore(client, { projectId: "77", iid: IID }, String);
    await expect(
      findOwnComments(store, "default", { id: FAKE_GITLAB_BOT.id, kind: "User" }, 3),
    ).rejects.toThrow(/Read 3 pages of comments without reaching the last/);
    expect(fake.requests).toHaveLength(3);
  });
});
