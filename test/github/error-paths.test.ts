/**
 * The GitHub client's error paths, with the calls intercepted by nock instead of a server: a failure
 * that a server would have to be scripted for (a reset before the request is sent, a GraphQL error in a
 * 200) is one line here. Every test asserts `scope.done()`: nock answers an unmatched path with 501.
 */
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGitHubClient, type GitHubClient } from "../../src/adapters/github/api.ts";
import { commentMarker, findTokenIdentity, githubCommentStore } from "../../src/adapters/github/comment.ts";
import { ReviewHostError } from "../../src/adapters/review-host/host-client.ts";
import { findOwnComments } from "../../src/core/review-thread/thread.ts";

const API = "https://github.api.test";
const COMMENTS = "/repos/acme/api/issues/7/comments";
const target = { owner: "acme", repo: "api", issueNumber: 7 };
const BOT = { id: 41898282, kind: "Bot" };
const ours = {
  id: 11,
  body: `${commentMarker("default")}\nold`,
  html_url: "https://github.test/c/11",
  user: { login: "github-actions[bot]", id: 41898282, type: "Bot" },
};

let waits: number[];
let client: GitHubClient;

// The suite's files share their worker's modules (vitest.config.ts, `isolate: false`): nock intercepts
// for this file's tests alone.
beforeAll(() => {
  if (!nock.isActive()) nock.activate();
});
afterAll(() => {
  nock.restore();
});
beforeEach(() => {
  nock.disableNetConnect();
  waits = [];
  client = createGitHubClient("ghs_token", API, {
    deadline: Date.now() + 60_000,
    random: () => 0,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  });
});
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

/** An Error, not a plain object: nock 15 never settles a request it fails with a plain object. */
const failure = (code: string, message = "socket hang up") => Object.assign(new Error(message), { code });

const github = () => nock(API).matchHeader("authorization", "token ghs_token");
const store = () => githubCommentStore(client, target);

describe("reads are retried on transient failures", () => {
  it("retries a 502, then reads the answer", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(502, { message: "Bad Gateway" })
      .get(COMMENTS)
      .query(true)
      .reply(200, [ours]);

    const found = await findOwnComments(store(), "default", BOT);
    expect(found).toEqual([{ id: 11, body: ours.body, url: ours.html_url, author: BOT }]);
    expect(waits).toEqual([500]);
    scope.done();
  });

  it("retries a connection reset", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .replyWithError(failure("ECONNRESET"))
      .get(COMMENTS)
      .query(true)
      .reply(200, []);

    expect(await findOwnComments(store(), "default", BOT)).toEqual([]);
    expect(waits).toEqual([500]);
    scope.done();
  });

  it("gives up after two retries and names the call and the status", async () => {
    const scope = github().get(COMMENTS).query(true).times(3).reply(503, { message: "Unavailable" });

    const error = await findOwnComments(store(), "default", BOT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReviewHostError);
    expect((error as Error).message).toBe(`GitHub GET ${COMMENTS} answered HTTP 503: Unavailable`);
    expect(waits).toEqual([500, 1_000]);
    scope.done();
  });

  it("waits as Retry-After says", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(429, { message: "slow down" }, { "retry-after": "3" })
      .get(COMMENTS)
      .query(true)
      .reply(200, []);

    expect(await findOwnComments(store(), "default", BOT)).toEqual([]);
    expect(waits).toEqual([3_000]);
    scope.done();
  });
});

describe("a POST that may have been applied is never sent again by the client (issue 16, item 8)", () => {
  it.each([
    ["a 502", (s: nock.Interceptor) => s.reply(502, { message: "Bad Gateway" })],
    ["a reset after sending", (s: nock.Interceptor) => s.replyWithError(failure("ECONNRESET"))],
  ])("fails once on %s, marked as maybe applied", async (_, answer) => {
    const scope = answer(github().post(COMMENTS, { body: "new" }));

    const error = await store()
      .create("new")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReviewHostError);
    expect((error as ReviewHostError).mayHaveApplied).toBe(true);
    expect(waits).toEqual([]);
    scope.done();
  });

  it("retries a POST whose connection was refused: it was never sent", async () => {
    const scope = github()
      .post(COMMENTS)
      .replyWithError(failure("ECONNREFUSED", "connect ECONNREFUSED"))
      .post(COMMENTS)
      .reply(201, ours);

    expect((await store().create("new")).id).toBe(11);
    expect(waits).toEqual([500]);
    scope.done();
  });

  it("does not retry a refusal, which applied nothing", async () => {
    const scope = github().post(COMMENTS).reply(403, { message: "Resource not accessible by integration" });

    const error = await store()
      .create("new")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, mayHaveApplied: false });
    expect((error as Error).message).toBe(
      `GitHub POST ${COMMENTS} answered HTTP 403: Resource not accessible by integration`,
    );
    scope.done();
  });

  it("retries an edit, which sets the same body however often it is sent", async () => {
    const scope = github()
      .patch("/repos/acme/api/issues/comments/11", { body: "new" })
      .reply(502)
      .patch("/repos/acme/api/issues/comments/11", { body: "new" })
      .reply(200, { ...ours, body: "new" });

    expect((await store().update(11, "new")).body).toBe("new");
    expect(waits).toEqual([500]);
    scope.done();
  });

  it("takes a deletion of a comment already gone for done", async () => {
    const scope = github().delete("/repos/acme/api/issues/comments/11").reply(404, { message: "Not Found" });
    await store().remove(11);
    scope.done();
  });
});

describe("GraphQL answers", () => {
  it("rejects with GraphQL's own message when the answer carries errors, without retrying", async () => {
    const scope = github()
      .post("/graphql", { query: "query { viewer { login databaseId __typename } }" })
      .reply(200, { data: null, errors: [{ type: "FORBIDDEN", message: "Resource not accessible" }] });

    await expect(findTokenIdentity(client)).rejects.toThrow(
      "GitHub's GraphQL API refused the viewer query: Resource not accessible",
    );
    expect(waits).toEqual([]);
    scope.done();
  });

  it("refuses an answer without an account id: a login alone identifies nobody", async () => {
    const scope = github()
      .post("/graphql")
      .reply(200, { data: { viewer: { login: "github-actions[bot]" } } });

    await expect(findTokenIdentity(client)).rejects.toThrow(
      "GitHub's GraphQL API named no viewer login and account id (databaseId) for the token.",
    );
    scope.done();
  });

  it("retries the viewer query, a read sent as POST, on a 502", async () => {
    const scope = github()
      .post("/graphql")
      .reply(502)
      .post("/graphql")
      .reply(200, {
        data: { viewer: { login: "github-actions[bot]", databaseId: 41898282, __typename: "Bot" } },
      });

    expect(await findTokenIdentity(client)).toEqual({ login: "github-actions[bot]", ...BOT });
    expect(waits).toEqual([500]);
    scope.done();
  });
});
