/**
 * The rules every host shares, run against the fakes of GitHub, GitLab, Bitbucket and Azure DevOps over loopback with the
 * real clients: one comment even when two runs race, no POST sent twice when it may have been applied,
 * and every answer read under its cap (issue 16, items 7 and 8, and "every read bounded").
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  FAKE_AZURE_BUILD_SERVICE,
  FAKE_AZURE_TOKEN,
  startFakeAzureDevOps,
} from "../../harness/fakes/fake-azure-devops.ts";
import {
  FAKE_BITBUCKET_BOT,
  FAKE_BITBUCKET_TOKEN,
  startFakeBitbucket,
} from "../../harness/fakes/fake-bitbucket.ts";
import { GITHUB_ACTIONS_BOT, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { FAKE_GITLAB_BOT, FAKE_GITLAB_TOKEN, startFakeGitLab } from "../../harness/fakes/fake-gitlab.ts";
import type { FaultKind, FaultMatch } from "../../harness/fakes/http-reply.ts";
import { createPullRequestThreads } from "../../src/adapters/azure-devops/threads.ts";
import { createBitbucketComments, IDENTITY_PROBE } from "../../src/adapters/bitbucket/comments.ts";
import { createGitHubClient } from "../../src/adapters/github/api.ts";
import { pullRequestThread } from "../../src/adapters/github/comment.ts";
import { createMergeRequestNotes } from "../../src/adapters/gitlab/notes.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { ReviewRun, ReviewThread } from "../../src/core/ports.ts";
import {
  commentMarker,
  mergeCommentStates,
  readCommentState,
  renderCommentState,
  replaceCommentState,
} from "../../src/core/report/comment-state.ts";
import type { StoredComment } from "../../src/core/review-thread/own-comment.ts";
import { type CommentStore, writeOwnComment } from "../../src/core/review-thread/thread.ts";

interface Setup {
  /** One run's view of the comment: a fresh port, as a new run would make. */
  thread(logger: MemoryLogger): ReviewThread;
  /** The comments written by the token's account, oldest first. */
  ours(): { id: number; body: string }[];
  /** Adds a comment by the token's account, as an earlier run left it. */
  seedOurs(body: string): void;
  fail(match: FaultMatch, fault: FaultKind, times?: number): void;
  hold(match: FaultMatch, count: number): void;
  requests(): { method: string; path: string }[];
  /** The comments list's path, for faults. */
  list: RegExp;
  /** The identity call, for faults. */
  identity: FaultMatch;
  /** How the host's messages name the listing call, and what it answers. */
  listCall: string;
  pageKind: string;
  suffix: string;
  close(): Promise<void>;
}

const HOSTS: { name: string; start(): Promise<Setup> }[] = [
  {
    name: "GitHub",
    async start() {
      const fake = await startFakeGitHub();
      return {
        thread: (logger) =>
          pullRequestThread({
            client: createGitHubClient("ghs_raceToken0123456789", fake.apiUrl, {
              deadline: Date.now() + 30_000,
              retryDelayMs: 5,
            }),
            target: { owner: "acme", repo: "api", issueNumber: 7 },
            key: "default",
            logger,
          }),
        ours: () =>
          fake.comments(7).filter((c) => c.user.id === GITHUB_ACTIONS_BOT.id && c.user.type === "Bot"),
        seedOurs: (body) => void fake.seedComments(7, [body], GITHUB_ACTIONS_BOT),
        fail: (match, fault, times) => fake.fail(match, fault, times),
        hold: (match, count) => fake.hold(match, count),
        requests: () => fake.requests,
        list: /^\/repos\/acme\/api\/issues\/7\/comments$/,
        identity: { method: "POST", path: /^\/graphql$/ },
        listCall: "GitHub GET /repos/acme/api/issues/7/comments",
        pageKind: "a page of comments",
        suffix: "pr-7",
        close: () => fake.close(),
      };
    },
  },
  {
    name: "GitLab",
    async start() {
      const fake = await startFakeGitLab();
      return {
        thread: (logger) => {
          const notes = createMergeRequestNotes({
            context: {
              apiUrl: fake.apiUrl,
              projectId: "77",
              projectPath: "acme/api",
              projectUrl: "https://gitlab.example/acme/api",
              token: FAKE_GITLAB_TOKEN,
              hasJobToken: false,
              mergeRequest: {
                iid: 12,
                sourceBranch: "feature",
                targetBranch: "main",
                diffBaseSha: undefined,
                isFork: false,
              },
            },
            commentKey: "default",
            logger,
            deadline: Date.now() + 30_000,
            retryDelayMs: 5,
          });
          if (!notes) throw new Error("expected a review port");
          return notes;
        },
        ours: () => fake.notes(12).filter((n) => n.author.id === FAKE_GITLAB_BOT.id),
        seedOurs: (body) => void fake.seedNotes(12, [body], FAKE_GITLAB_BOT),
        fail: (match, fault, times) => fake.fail(match, fault, times),
        hold: (match, count) => fake.hold(match, count),
        requests: () => fake.requests,
        list: /^\/projects\/77\/merge_requests\/12\/notes$/,
        identity: { method: "GET", path: /^\/user$/ },
        listCall: "GitLab GET /api/v4/projects/77/merge_requests/12/notes",
        pageKind: "a page of notes",
        suffix: "mr-12",
        close: () => fake.close(),
      };
    },
  },
  {
    name: "Bitbucket",
    async start() {
      const fake = await startFakeBitbucket();
      // The identity probe (a draft comment, deleted at once) is no create of the comment: faults and
      // counts are about the real ones.
      const probe = /finding which account this token acts as/;
      const notProbe = /^(?![\s\S]*finding which account this token acts as)/;
      const real = (match: FaultMatch): FaultMatch => (match.body ? match : { ...match, body: notProbe });
      expect(IDENTITY_PROBE).toMatch(probe);
      return {
        thread: (logger) => {
          const comments = createBitbucketComments({
            context: { apiUrl: fake.apiUrl, workspace: "acme", repoSlug: "api", token: FAKE_BITBUCKET_TOKEN },
            pullRequestId: 12,
            commentKey: "default",
            logger,
            deadline: Date.now() + 30_000,
            retryDelayMs: 5,
          });
          if (!comments) throw new Error("expected a review port");
          return comments;
        },
        ours: () =>
          fake
            .comments(12)
            .filter((c) => c.user.uuid === FAKE_BITBUCKET_BOT.uuid && !c.deleted && !c.pending)
            .map((c) => ({ id: c.id, body: c.content.raw })),
        seedOurs: (body) => void fake.seedComments(12, [body], FAKE_BITBUCKET_BOT),
        fail: (match, fault, times) => fake.fail(real(match), fault, times),
        hold: (match, count) => fake.hold(real(match), count),
        requests: () => fake.requests.filter((r) => !(r.method === "POST" && probe.test(r.body))),
        list: /^\/repositories\/acme\/api\/pullrequests\/12\/comments$/,
        identity: {
          method: "POST",
          path: /^\/repositories\/acme\/api\/pullrequests\/12\/comments$/,
          body: probe,
        },
        listCall: "Bitbucket GET /2.0/repositories/acme/api/pullrequests/12/comments",
        pageKind: "a page of comments",
        suffix: "pr-12",
        close: () => fake.close(),
      };
    },
  },
  {
    name: "Azure DevOps",
    async start() {
      const fake = await startFakeAzureDevOps();
      const target = {
        collectionUri: fake.collectionUri.replace(/\/$/, ""),
        project: "proj",
        projectName: "proj",
        repositoryId: "repo",
        repositoryName: "repo",
      };
      return {
        thread: (logger) => {
          const threads = createPullRequestThreads({
            target,
            token: FAKE_AZURE_TOKEN,
            number: 12,
            commentKey: "default",
            logger,
            deadline: Date.now() + 30_000,
            retryDelayMs: 5,
          });
          if (!threads) throw new Error("expected a review port");
          return threads;
        },
        ours: () =>
          fake
            .threads(12)
            .flatMap((thread) =>
              thread.comments
                .filter((c) => c.author.id === FAKE_AZURE_BUILD_SERVICE.id && !c.isDeleted)
                .map((c) => ({ id: thread.id, body: c.content })),
            ),
        seedOurs: (body) => void fake.seedThread(12, [{ content: body, author: FAKE_AZURE_BUILD_SERVICE }]),
        fail: (match, fault, times) => fake.fail(match, fault, times),
        hold: (match, count) => fake.hold(match, count),
        requests: () => fake.requests,
        list: /^\/proj\/_apis\/git\/repositories\/repo\/pullRequests\/12\/threads$/,
        identity: { method: "GET", path: /^\/_apis\/connectionData$/ },
        listCall: "Azure DevOps GET /fabrikam/proj/_apis/git/repositories/repo/pullRequests/12/threads",
        pageKind: "a page of threads",
        suffix: "pr-12",
        close: () => fake.close(),
      };
    },
  },
];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

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

const previewsOf = (body: string | undefined) => readCommentState(body ?? "", "default")?.previews;
const MB = 1_000_000;

describe.each(HOSTS)("$name", (host) => {
  async function start(): Promise<Setup> {
    const setup = await host.start();
    cleanups.push(() => setup.close());
    return setup;
  }
  const posts = (setup: Setup) =>
    setup.requests().filter((r) => r.method === "POST" && setup.list.test(r.path));

  describe("one comment even when two runs race (item 8)", () => {
    it("keeps the oldest of two comments created at once, recording the previews of both", async () => {
      const setup = await start();
      const { suffix } = setup;
      // Both creates are held until both are sent: each run has looked, found nothing, and created.
      setup.hold({ method: "POST", path: setup.list }, 2);
      const logs = [new MemoryLogger(), new MemoryLogger()];

      const urls = await Promise.all([
        setup.thread(logs[0] as MemoryLogger).publish(preview(`pets-${suffix}`)),
        setup.thread(logs[1] as MemoryLogger).publish(preview(`shop-${suffix}`, `toys-${suffix}`)),
      ]);

      expect(posts(setup)).toHaveLength(2);
      const remaining = setup.ours();
      expect(remaining).toHaveLength(1);
      expect(previewsOf(remaining[0]?.body)).toEqual([`pets-${suffix}`, `shop-${suffix}`, `toys-${suffix}`]);
      expect(urls[0]).toBeDefined();
      expect(urls[1]).toBe(urls[0]);
      expect(urls[0]).toContain(String(remaining[0]?.id));
      const logged = logs.flatMap((log) => log.entries.map((e) => `${e.level}: ${e.message}`));
      expect(logged.filter((line) => line.startsWith("warning"))).toEqual([]);
      expect(
        logged.some((line) => /1 duplicate\(s\) written by a concurrent run merged into it/.test(line)),
      ).toBe(true);

      // The next run reads the merged record: no preview is forgotten, so none leaks at cleanup.
      expect(await setup.thread(new MemoryLogger()).recordedPreviews()).toEqual([
        `pets-${suffix}`,
        `shop-${suffix}`,
        `toys-${suffix}`,
      ]);
    });

    it("merges duplicates an earlier race left behind into the oldest, and deletes the others", async () => {
      const setup = await start();
      const { suffix } = setup;
      const record = (previews: string[]) =>
        `${commentMarker("default")}\nold\n${renderCommentState("default", { previews })}`;
      setup.seedOurs(record([`a-${suffix}`]));
      setup.seedOurs(record([`b-${suffix}`]));
      const [oldest] = setup.ours();

      const review = setup.thread(new MemoryLogger());
      expect(await review.recordedPreviews()).toEqual([`a-${suffix}`, `b-${suffix}`]);
      await review.publish(preview(`c-${suffix}`));

      expect(setup.ours().map((c) => c.id)).toEqual([oldest?.id]);
      expect(previewsOf(setup.ours()[0]?.body)).toEqual([`a-${suffix}`, `b-${suffix}`, `c-${suffix}`]);
    });
  });

  describe("a POST that may have been applied is never blindly sent again (item 8)", () => {
    it.each([
      ["its answer was lost (502 after applying)", { applyThenStatus: 502 }],
      ["the connection dropped after it was applied", { applyThenDrop: true }],
    ] as const)("sends one POST when %s, and finds the comment it made", async (_, fault) => {
      const setup = await start();
      setup.fail({ method: "POST", path: setup.list }, fault);
      const logger = new MemoryLogger();

      const url = await setup.thread(logger).publish(preview(`pets-${setup.suffix}`));

      expect(posts(setup)).toHaveLength(1);
      expect(setup.ours()).toHaveLength(1);
      expect(url).toContain(String(setup.ours()[0]?.id));
      expect(logger.messages("warning")).toEqual([]);
    });

    it("creates once more after a 502 that applied nothing, having looked first", async () => {
      const setup = await start();
      setup.fail({ method: "POST", path: setup.list }, { status: 502 });

      expect(await setup.thread(new MemoryLogger()).publish(preview(`pets-${setup.suffix}`))).toBeDefined();

      const calls = setup
        .requests()
        .filter((r) => setup.list.test(r.path))
        .map((r) => r.method);
      expect(calls).toEqual(["GET", "POST", "GET", "POST", "GET"]);
      expect(setup.ours()).toHaveLength(1);
    });

    it("gives up with a warning when the second POST fails too, without a third", async () => {
      const setup = await start();
      setup.fail({ method: "POST", path: setup.list }, { status: 502 }, 5);
      const logger = new MemoryLogger();

      expect(await setup.thread(logger).publish(preview(`pets-${setup.suffix}`))).toBeUndefined();

      expect(posts(setup)).toHaveLength(2);
      expect(setup.ours()).toEqual([]);
      expect(logger.messages("warning")).toEqual([
        expect.stringMatching(/^Could not write .*answered HTTP 502/),
      ]);
    });
  });

  describe("every answer is read under a cap (every read bounded)", () => {
    it("refuses a 50 MB listing as it streams, names the call, the size and the cap, and goes on", async () => {
      const setup = await start();
      setup.fail({ method: "GET", path: setup.list }, { hugeBody: 50 * MB }, 10);
      const logger = new MemoryLogger();
      const review = setup.thread(logger);

      expect(await review.recordedPreviews()).toEqual([]);
      expect(await review.publish(preview(`pets-${setup.suffix}`))).toBeUndefined();

      const warnings = logger.messages("warning");
      expect(warnings).toHaveLength(2);
      for (const warning of warnings) {
        expect(warning).toContain(
          `${setup.listCall} answered more than 32 MiB, over the 32 MiB allowed for ${setup.pageKind}; the answer was not read.`,
        );
      }
      // Nothing is created when the comments cannot be read: one may exist already.
      expect(posts(setup)).toEqual([]);
    });

    it("refuses an identity answer that declares 50 MB before reading it, and writes nothing", async () => {
      const setup = await start();
      setup.fail(setup.identity, { hugeBody: 50 * MB, declareLength: true });
      const logger = new MemoryLogger();

      expect(await setup.thread(logger).publish(preview(`pets-${setup.suffix}`))).toBeUndefined();

      const [warning] = logger.messages("warning");
      expect(warning).toMatch(/answered 47\.7 MiB, over the 64 KiB allowed for the token's (identity|user)/);
      expect(setup.requests().filter((r) => setup.list.test(r.path))).toEqual([]);
    });

    it("takes a create answered with 50 MB as applied: looks, and finds the comment without a second POST", async () => {
      const setup = await start();
      setup.fail({ method: "POST", path: setup.list }, { hugeBody: 50 * MB, apply: true });
      const logger = new MemoryLogger();

      const url = await setup.thread(logger).publish(preview(`pets-${setup.suffix}`));

      expect(posts(setup)).toHaveLength(1);
      expect(setup.ours()).toHaveLength(1);
      expect(url).toContain(String(setup.ours()[0]?.id));
      expect(logger.messages("warning")).toEqual([]);
    });
  });
});

describe("settling with a listing that lags behind a create", () => {
  it("deletes its own new comment in favour of an older one even when the listing does not show it yet", async () => {
    const account = { id: 9, kind: "Bot" };
    const record = (previews: string[]) =>
      `${commentMarker("default")}\n${renderCommentState("default", { previews })}`;
    const comments: StoredComment[] = [];
    const removed: number[] = [];
    let lagging = false;
    const store: CommentStore = {
      async page() {
        // The listing after our create misses it, as an eventually consistent index may.
        const shown = lagging ? comments.slice(0, -1) : comments;
        lagging = false;
        return { comments: shown.map((c) => ({ ...c })), next: undefined };
      },
      async create(body) {
        // Another run's comment lands first, between our lookup and our create.
        comments.push({ id: 1, body: record(["theirs"]), author: account, url: "u1" });
        comments.push({ id: 2, body, author: account, url: "u2" });
        lagging = true;
        return { id: 2, body, author: account, url: "u2" };
      },
      async update(id, body) {
        const comment = comments.find((c) => c.id === id) as StoredComment;
        comment.body = body;
        return { ...comment };
      },
      async remove(id) {
        removed.push(id);
        comments.splice(
          comments.findIndex((c) => c.id === id),
          1,
        );
      },
    };

    const outcome = await writeOwnComment(store, "default", account, record(["ours"]), []);

    expect(outcome).toMatchObject({ action: "updated", removed: [2] });
    expect(outcome.comment.id).toBe(1);
    expect(comments.map((c) => [c.id, readCommentState(c.body, "default")?.previews])).toEqual([
      [1, ["ours", "theirs"]],
    ]);
  });
});

describe("merging recorded states", () => {
  it("is the sorted union, and replaces only this key's record in a body", () => {
    expect(mergeCommentStates({ previews: ["b", "a"] }, undefined, { previews: ["c", "a"] })).toEqual({
      previews: ["a", "b", "c"],
    });
    const body = [
      commentMarker("k"),
      "text",
      renderCommentState("other", { previews: ["x"] }),
      renderCommentState("k", { previews: ["a"] }),
    ].join("\n");
    const replaced = replaceCommentState(body, "k", { previews: ["a", "b"] });
    expect(readCommentState(replaced, "k")).toEqual({ previews: ["a", "b"] });
    expect(readCommentState(replaced, "other")).toEqual({ previews: ["x"] });
    expect(replaced.split("\n").slice(0, 3)).toEqual(body.split("\n").slice(0, 3));
    expect(readCommentState(replaceCommentState("no record", "k", { previews: ["z"] }), "k")).toEqual({
      previews: ["z"],
    });
  });
});
