/**
 * `gitbook-openapi sync` as a Bitbucket Pipelines step runs it (its variables, BITBUCKET_TOKEN) against
 * the emulator and the fake Bitbucket Cloud over loopback: the pull request's one living comment, and
 * the scheduled cleanup sweep.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import {
  FAKE_BITBUCKET_BOT,
  FAKE_BITBUCKET_TOKEN,
  type FakeBitbucket,
  type FakeBitbucketOptions,
  startFakeBitbucket,
} from "../../harness/fakes/fake-bitbucket.ts";
import { commentMarker, readCommentState } from "../../src/core/report/comment-state.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { CLI_SOURCE, type CliRun, runCli } from "../cli/run-cli.ts";
import { git as gitIn } from "../support/git.ts";

const TOKEN = "gb_7Qx2Lm9Rt4Vw8Zp1Kd5N";
const ORG = "demo-org";
const NOT_PROBE = /^(?![\s\S]*finding which account this token acts as)/;
const COMMENTS = (pr: number) => new RegExp(`^/repositories/acme/api/pullrequests/${pr}/comments$`);

let emulator: RunningEmulator;
let workspace: string;
let bitbucket: FakeBitbucket;

const spec = (title: string, paths = "{}") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: ${paths}\n`;
const withPets = "\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n";

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
});
async function start(options: FakeBitbucketOptions = {}): Promise<void> {
  bitbucket = await startFakeBitbucket(options);
}
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-bitbucket-"));
  await mkdir(path.join(workspace, "specs"), { recursive: true });
  await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
});
afterEach(async () => {
  await bitbucket?.close();
  await rm(workspace, { recursive: true, force: true });
});

/** The variables Bitbucket Pipelines sets in a step, the secured BITBUCKET_TOKEN, and GitBook's. */
function pipelineEnv(
  pullRequest: number | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    GITBOOK_TOKEN: TOKEN,
    GITBOOK_API_URL: emulator.baseUrl,
    GITBOOK_ORGANIZATION: ORG,
    BITBUCKET_BUILD_NUMBER: "42",
    BITBUCKET_WORKSPACE: "acme",
    BITBUCKET_REPO_SLUG: "api",
    BITBUCKET_REPO_FULL_NAME: "acme/api",
    BITBUCKET_GIT_HTTP_ORIGIN: "http://bitbucket.org/acme/api",
    BITBUCKET_CLONE_DIR: workspace,
    BITBUCKET_COMMIT: "c".repeat(40),
    BITBUCKET_API_URL: bitbucket.apiUrl,
    BITBUCKET_TOKEN: FAKE_BITBUCKET_TOKEN,
    ...(pullRequest === undefined
      ? {}
      : { BITBUCKET_PR_ID: String(pullRequest), BITBUCKET_PR_DESTINATION_BRANCH: "main" }),
    ...extra,
  };
}

function sync(args: string[], env: Record<string, string>, entry?: string): Promise<CliRun> {
  return runCli(["sync", "--workspace", workspace, ...args], { env, ...(entry ? { entry } : {}) });
}

const results = (run: CliRun) => JSON.parse(run.stdout) as SpecResult[];
const ours = (pr: number) =>
  bitbucket.comments(pr).filter((c) => c.user.uuid === FAKE_BITBUCKET_BOT.uuid && !c.deleted && !c.pending);
const puts = () => bitbucket.requests.filter((r) => r.method === "PUT");

describe("a Bitbucket pull request pipeline", () => {
  it("writes one comment with the preview links and the breaking changes, then edits it", async () => {
    await start();
    const git = (...args: string[]) => gitIn(workspace, ...args);
    await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets", withPets));
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    const base = git("rev-parse", "--short=12", "HEAD");
    await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
    git("commit", "-q", "-am", "head");
    const env = pipelineEnv(5, { BITBUCKET_PR_DESTINATION_COMMIT: base });

    const first = await sync(["--json"], env);
    expect(first.code).toBe(0);
    expect(results(first).map((r) => r.slug)).toEqual(["specs-pets-pr-5"]);
    const [comment] = ours(5);
    expect(ours(5)).toHaveLength(1);
    expect(comment?.content.raw).toContain(commentMarker("default"));
    expect(comment?.content.raw).toContain("specs-pets-pr-5");
    expect(comment?.content.raw).toContain("#### API changes");
    expect(comment?.content.raw).toMatch(/specs\/pets\.yaml\*\*: ⚠️ 1 breaking/);
    expect(first.stderr).toMatch(
      /Pull request comment created: https:\/\/bitbucket\.org\/acme\/api\/pull-requests\/5#comment-\d+/,
    );
    // The probe that told the token's account is gone.
    expect(bitbucket.comments(5).filter((c) => c.pending && !c.deleted)).toEqual([]);

    await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets", withPets));
    const second = await sync(["--json"], env);
    expect(second.code).toBe(0);
    expect(ours(5).map((c) => c.id)).toEqual([comment?.id]);
    expect(puts()).toHaveLength(1);
    expect(ours(5)[0]?.content.raw).not.toContain("#### API changes");
    expect(second.stderr).toContain("Pull request comment updated");
  });

  it("leaves one comment when two runs race, recording the previews of both", async () => {
    await start();
    await writeFile(path.join(workspace, "specs", "shop.yaml"), spec("Shop"));
    bitbucket.hold({ method: "POST", path: COMMENTS(8), body: NOT_PROBE }, 2);
    const runs = await Promise.all([sync(["--json"], pipelineEnv(8)), sync(["--json"], pipelineEnv(8))]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(ours(8)).toHaveLength(1);
    expect(readCommentState(ours(8)[0]?.content.raw ?? "", "default")?.previews).toEqual([
      "specs-pets-pr-8",
      "specs-shop-pr-8",
    ]);
  });

  it("never touches a stranger's comment that carries the marker", async () => {
    await start();
    const [stranger] = bitbucket.seedComments(9, [`${commentMarker("default")}\nI copied the marker`]);
    const run = await sync([], pipelineEnv(9));
    expect(run.code).toBe(0);
    const after = bitbucket.comments(9).find((c) => c.id === stranger?.id);
    expect(after?.content.raw).toBe(`${commentMarker("default")}\nI copied the marker`);
    expect(after?.deleted).toBe(false);
    expect(ours(9)).toHaveLength(1);
    const touched = bitbucket.requests.filter((r) => r.path.endsWith(`/comments/${stranger?.id}`));
    expect(touched).toEqual([]);
  });

  it("does not double the comment when the create's answer is lost", async () => {
    await start();
    bitbucket.fail({ method: "POST", path: COMMENTS(11), body: NOT_PROBE }, { applyThenDrop: true });
    const run = await sync([], pipelineEnv(11));
    expect(run.code).toBe(0);
    const creates = bitbucket.requests.filter((r) => r.method === "POST" && NOT_PROBE.test(r.body));
    expect(creates).toHaveLength(1);
    expect(ours(11)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/warning/i);
  });

  it("sends each token to its own origin only, and follows no next page elsewhere", async () => {
    const elsewhere = await startFakeBitbucket();
    try {
      await start({
        maxPagelen: 1,
        nextUrl: (href) => href.replace(/^http:\/\/[^/]+/, new URL(elsewhere.apiUrl).origin),
      });
      bitbucket.seedComments(12, ["one", "two"]);
      const run = await sync([], pipelineEnv(12));
      expect(run.code).toBe(0);
      expect(elsewhere.requests).toEqual([]);
      expect(run.stderr).toMatch(/named a next page outside/);
      expect(ours(12)).toEqual([]);
      expect(bitbucket.requests.every((r) => r.authorization === `Bearer ${FAKE_BITBUCKET_TOKEN}`)).toBe(
        true,
      );
      expect(emulator.requests.some((r) => r.authorization?.includes(FAKE_BITBUCKET_TOKEN))).toBe(false);
      expect(`${run.stdout}${run.stderr}`).not.toContain(FAKE_BITBUCKET_TOKEN);
    } finally {
      await elsewhere.close();
    }
  });

  it("pages by each page's next address when Bitbucket serves fewer comments a page than asked", async () => {
    await start({ maxPagelen: 2 });
    bitbucket.seedComments(13, ["a", "b", "c", "d", "e"]);
    expect((await sync([], pipelineEnv(13))).code).toBe(0);
    expect((await sync([], pipelineEnv(13))).code).toBe(0);
    expect(ours(13)).toHaveLength(1);
    const pages = bitbucket.requests.filter((r) => r.method === "GET" && /page=3/.test(r.url));
    expect(pages.length).toBeGreaterThan(0);
  });
});

describe("the scheduled cleanup sweep", () => {
  it("deletes only the closed pull requests' previews, keeps open and unknown ones, and updates their comments", async () => {
    await start();
    for (const pr of [3, 4, 6]) expect((await sync(["--slug-prefix", "api"], pipelineEnv(pr))).code).toBe(0);
    await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets renamed"));
    bitbucket.setState(3, "MERGED");
    bitbucket.setState(4, "OPEN");
    // Pull request 6 answers 404: its state is unknown, so its previews stay.
    const report = path.join(workspace, "reports", "gl-code-quality.json");
    const sweep = await sync(
      ["--mode", "cleanup", "--slug-prefix", "api", "--json", "--codequality", report],
      pipelineEnv(undefined),
    );
    expect(sweep.code).toBe(0);
    // The report the CI asks for is written for a sweep too: a cleanup finds nothing to report.
    expect(JSON.parse(await readFile(report, "utf8"))).toEqual([]);
    expect(results(sweep).map((r) => [r.slug, r.status])).toEqual([["api-specs-pets-pr-3", "deleted"]]);
    expect(emulator.getSpec(ORG, "api-specs-pets-pr-3")).toBeUndefined();
    expect(emulator.getSpec(ORG, "api-specs-pets-pr-4")).toBeDefined();
    expect(emulator.getSpec(ORG, "api-specs-pets-pr-6")).toBeDefined();
    expect(sweep.stderr).toMatch(/Could not tell whether pull request #6 is closed .*its previews are kept/);
    expect(sweep.stderr).toContain("1 closed pull request(s) cleaned up (#3), 1 open, 1 unknown (kept)");
    expect(ours(3)[0]?.content.raw).toMatch(/api-specs-pets-pr-3/);
    expect(readCommentState(ours(3)[0]?.content.raw ?? "", "default")?.previews).toEqual([]);
    expect(readCommentState(ours(4)[0]?.content.raw ?? "", "default")?.previews).toEqual([
      "api-specs-pets-pr-4",
    ]);
  });

  it("refuses to sweep without BITBUCKET_TOKEN, naming it", async () => {
    await start();
    const env = pipelineEnv(undefined);
    delete env.BITBUCKET_TOKEN;
    const run = await sync(["--mode", "cleanup"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("BITBUCKET_TOKEN");
  });
});

describe("the CLI in Bitbucket mode, as a process", () => {
  it("previews the pull request and writes its comment", async () => {
    await start();
    const run = await sync(["--json"], pipelineEnv(21), CLI_SOURCE);
    expect(run.code).toBe(0);
    expect(results(run).map((r) => r.slug)).toEqual(["specs-pets-pr-21"]);
    expect(ours(21)).toHaveLength(1);
    expect(run.stderr).not.toContain(FAKE_BITBUCKET_TOKEN);
  });
});
