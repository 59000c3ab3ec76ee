/**
 * The GitHub client's error paths, with the calls intercepted by nock instead of a server: a failure
 * that a server would have to be scripted for (a reset before the request is sent, a GraphQL error in a
 * 200) is one line here. Every test asserts `scope.done()`: nock answers an unmatched path with 501.
 */
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  commentMarker,
  findOwnComment,
  findTokenLogin,
  GitHubCommentError,
  upsertOwnComment,
} from "../../src/github/comment.ts";
import { createGitHubClient, type GitHubClient } from "../../src/github/octokit.ts";

const API = "https://github.api.test";
const COMMENTS = "/repos/acme/api/issues/7/comments";
const target = { owner: "acme", repo: "api", issueNumber: 7, key: "default", author: "github-actions" };
const ours = { id: 11, body: `${commentMarker("default")}\nold`, html_url: "https://github.test/c/11" };
const oursWithAuthor = { ...ours, user: { login: "github-actions[bot]", type: "Bot" } };

let waits: number[];
let octokit: GitHubClient;

beforeEach(() => {
  nock.disableNetConnect();
  waits = [];
  octokit = createGitHubClient("ghs_token", API, {
    deadline: Date.now() + 60_000,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
});
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

/** An Error, not a plain object: nock 15 never settles a fetch it fails with a plain object. */
const connectionReset = () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });

const github = () => nock(API).matchHeader("authorization", "token ghs_token");

describe("transient failures are retried", () => {
  it("retries a 502, then reads the answer", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(502, { message: "Bad Gateway" })
      .get(COMMENTS)
      .query(true)
      .reply(200, [oursWithAuthor]);

    expect(await findOwnComment(octokit, target)).toEqual({ id: 11, body: ours.body, url: ours.html_url });
    expect(waits).toEqual([1_000]);
    scope.done();
  });

  it("retries a connection reset before the request is sent", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .replyWithError(connectionReset())
      .get(COMMENTS)
      .query(true)
      .reply(200, []);

    expect(await findOwnComment(octokit, target)).toBeUndefined();
    expect(waits).toEqual([1_000]);
    scope.done();
  });

  it("gives up after two retries and names the call and the status", async () => {
    const scope = github().get(COMMENTS).query(true).times(3).reply(503, { message: "Unavailable" });

    const failure = upsertOwnComment(octokit, { ...target, body: "new" });
    await expect(failure).rejects.toThrow(GitHubCommentError);
    await expect(failure).rejects.toThrow(/Could not list the comments of acme\/api#7 \(HTTP 503\)/);
    expect(waits).toEqual([1_000, 2_000]);
    scope.done();
  });

  it("gives up on connections that keep resetting, as a failed call without an answer", async () => {
    const scope = github().get(COMMENTS).query(true).times(3).replyWithError(connectionReset());

    const failure = upsertOwnComment(octokit, { ...target, body: "new" });
    await expect(failure).rejects.toThrow(/Could not list the comments of acme\/api#7/);
    expect(waits).toHaveLength(2);
    scope.done();
  });
});

describe("refusals are reported, not retried", () => {
  it("reports a 403 on create as forbidden, with the permission to add", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .times(2)
      .reply(200, [])
      .post(COMMENTS, { body: "new" })
      .reply(403, { message: "Resource not accessible by integration" });

    const result = await upsertOwnComment(octokit, { ...target, body: "new" });

    expect(result).toEqual({
      action: "forbidden",
      message: expect.stringMatching(
        /refused to create a comment on acme\/api#7 \(403: Resource not accessible by integration.*pull-requests: write/,
      ),
    });
    expect(waits).toEqual([]);
    scope.done();
  });

  it("throws a 404 on update with the status, once", async () => {
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(200, [oursWithAuthor])
      .patch("/repos/acme/api/issues/comments/11", { body: "new" })
      .reply(404, { message: "Not Found" });

    const failure = upsertOwnComment(octokit, { ...target, body: "new" });
    await expect(failure).rejects.toMatchObject({ name: "GitHubCommentError", status: 404 });
    await expect(failure).rejects.toThrow(
      /Could not update comment 11 on acme\/api#7 \(HTTP 404\): Not Found/,
    );
    expect(waits).toEqual([]);
    scope.done();
  });
});

describe("GraphQL answers", () => {
  it("rejects with GraphQL's own message when the answer carries errors, without retrying", async () => {
    const scope = github()
      .post("/graphql", { query: "query { viewer { login } }" })
      .reply(200, { data: null, errors: [{ type: "FORBIDDEN", message: "Resource not accessible" }] });

    await expect(findTokenLogin(octokit)).rejects.toThrow(/Resource not accessible/);
    expect(waits).toEqual([]);
    scope.done();
  });

  it("refuses an answer without a viewer login", async () => {
    const scope = github()
      .post("/graphql")
      .reply(200, { data: { viewer: null } });

    await expect(findTokenLogin(octokit)).rejects.toThrow(
      new GitHubCommentError("GitHub's GraphQL API named no viewer login for the token.", undefined),
    );
    scope.done();
  });

  it("reads the login", async () => {
    const scope = github()
      .post("/graphql")
      .reply(200, { data: { viewer: { login: "github-actions" } } });

    expect(await findTokenLogin(octokit)).toBe("github-actions");
    scope.done();
  });
});
