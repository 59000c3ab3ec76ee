/**
 * `gitbook-openapi sync` as Azure Pipelines runs it (its variables, `SYSTEM_ACCESSTOKEN` mapped into the
 * step) against the emulator and the fake Azure DevOps over loopback: one living comment per pull
 * request, kept single, never a stranger's, never doubled by a lost answer; the token only ever sent to
 * the collection; and the pull request state port of the cleanup sweep.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_AZURE_BUILD_SERVICE,
  FAKE_AZURE_STRANGER,
  FAKE_AZURE_SYSTEM,
  FAKE_AZURE_TOKEN,
  type FakeAzureDevOps,
  type FakeAzureDevOpsOptions,
  startFakeAzureDevOps,
} from "../../harness/fakes/fake-azure-devops.ts";
import { commentMarker, readCommentState } from "../../src/core/report/comment-state.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { readCiRun } from "../../src/hosts/cli/ci.ts";
import { git as gitIn } from "../support/git.ts";
import { emulatorEnv, ORG, useEmulator } from "../support/use-emulator.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "cli-azure-docs-token-5b1e9c";
const PROJECT_ID = "6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c";
const REPOSITORY_ID = "9b2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d";
const THREADS = new RegExp(`^/${PROJECT_ID}/_apis/git/repositories/${REPOSITORY_ID}/pullRequests/5/threads$`);

const spec = (title: string, paths = "paths: {}\n") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\n${paths}`;
const WITH_PETS = "paths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n";

const emulator = useEmulator(TOKEN);
let azure: FakeAzureDevOps;
let workspace: string;
let mergeCommit: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-cli-azure-"));
  await mkdir(path.join(workspace, "specs"), { recursive: true });
  // The target branch has /pets; the pull request removes it; Azure Pipelines builds their merge.
  const git = (...args: string[]) => gitIn(workspace, ...args);
  await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets", WITH_PETS));
  await writeFile(path.join(workspace, "specs", "stores.yaml"), spec("Stores"));
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  git("checkout", "-q", "-b", "feature");
  await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
  git("commit", "-q", "-am", "remove /pets");
  git("checkout", "-q", "main");
  git("merge", "-q", "--no-ff", "feature", "-m", "Merge pull request 5");
  mergeCommit = git("rev-parse", "HEAD");
});
afterEach(async () => {
  await azure?.close();
  await rm(workspace, { recursive: true, force: true });
});

async function startAzure(options: FakeAzureDevOpsOptions = {}): Promise<FakeAzureDevOps> {
  azure = await startFakeAzureDevOps(options);
  return azure;
}

/** The variables of a pull request validation build of an Azure Repos repository, token mapped. */
function pipelineEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    TF_BUILD: "True",
    SYSTEM_COLLECTIONURI: azure.collectionUri,
    SYSTEM_TEAMPROJECT: "Widgets",
    SYSTEM_TEAMPROJECTID: PROJECT_ID,
    BUILD_REPOSITORY_ID: REPOSITORY_ID,
    BUILD_REPOSITORY_NAME: "api",
    BUILD_REPOSITORY_PROVIDER: "TfsGit",
    BUILD_REPOSITORY_URI: "https://dev.azure.com/fabrikam/Widgets/_git/api",
    BUILD_SOURCESDIRECTORY: workspace,
    BUILD_SOURCEVERSION: mergeCommit,
    BUILD_REASON: "PullRequest",
    SYSTEM_PULLREQUEST_PULLREQUESTID: "5",
    SYSTEM_PULLREQUEST_TARGETBRANCH: "refs/heads/main",
    SYSTEM_ACCESSTOKEN: FAKE_AZURE_TOKEN,
    ...overrides,
  };
}

function sync(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCli(["sync", "--workspace", workspace, ...args], {
    env: { ...emulatorEnv(emulator(), TOKEN), ...env },
  });
}

const results = (run: CliRun) => JSON.parse(run.stdout) as SpecResult[];

/** Live comments written by the build service, each with its thread. */
function ours(pullRequest = 5) {
  return azure
    .threads(pullRequest)
    .flatMap((thread) =>
      thread.comments
        .filter((c) => c.author.id === FAKE_AZURE_BUILD_SERVICE.id && !c.isDeleted)
        .map((c) => ({ thread: thread.id, status: thread.status, body: c.content })),
    );
}

const calls = (method: string) => azure.requests.filter((r) => r.method === method);

describe("gitbook-openapi sync in an Azure Pipelines pull request build", () => {
  it("writes one comment with the preview links and the breaking changes, then edits it", async () => {
    await startAzure();
    const foreign = `${commentMarker("default")}\nI am not the build service`;
    const stranger = azure.seedThread(5, [{ content: foreign, author: FAKE_AZURE_STRANGER }]);
    azure.seedThread(5, [{ content: foreign, author: FAKE_AZURE_SYSTEM, commentType: "system" }]);

    const first = await sync(["--json"], pipelineEnv());
    expect(first.code).toBe(0);
    const pets = results(first).find((r) => r.file === "specs/pets.yaml");
    expect(results(first).map((r) => r.slug)).toEqual(["specs-pets-pr-5", "specs-stores-pr-5"]);
    expect(pets?.changes?.against).toBe("base commit");
    const [comment] = ours();
    expect(ours()).toHaveLength(1);
    expect(comment?.status).toBe("closed");
    expect(comment?.body).toContain("(preview for !5)");
    expect(comment?.body).toMatch(/\]\(https?:\/\/[^)]*specs-pets-pr-5/);
    expect(comment?.body).toContain("#### API changes");
    expect(comment?.body).toMatch(/specs\/pets\.yaml\*\*: ⚠️ 1 breaking/);
    expect(readCommentState(comment?.body ?? "", "default")?.previews).toEqual([
      "specs-pets-pr-5",
      "specs-stores-pr-5",
    ]);
    expect(first.stderr).toContain(
      `Pull request comment created: ${azure.collectionUri}Widgets/_git/api/pullrequest/5?discussionId=${comment?.thread}`,
    );

    await writeFile(path.join(workspace, "specs", "stores.yaml"), spec("Stores", WITH_PETS));
    const second = await sync(["--json"], pipelineEnv());
    expect(second.code).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.thread).toBe(comment?.thread);
    expect(calls("POST")).toHaveLength(1);
    expect(calls("PATCH")).toHaveLength(1);
    // The stranger's comment carries our marker and is never touched.
    expect(azure.threads(5).find((t) => t.id === stranger.id)?.comments[0]?.content).toBe(foreign);
    expect(calls("DELETE")).toEqual([]);
    expect(
      azure.requests.every((r) => r.query.get("api-version") === "7.1" || r.path === "/_apis/connectionData"),
    ).toBe(true);
  });

  it("leaves one comment when two runs race, holding both runs' previews", async () => {
    await startAzure();
    azure.hold({ method: "POST", path: THREADS }, 2);

    const runs = await Promise.all([
      sync(["--json", "--files", "specs/pets.yaml"], pipelineEnv()),
      sync(["--json", "--files", "specs/stores.yaml"], pipelineEnv()),
    ]);

    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(calls("POST")).toHaveLength(2);
    expect(ours()).toHaveLength(1);
    expect(readCommentState(ours()[0]?.body ?? "", "default")?.previews).toEqual([
      "specs-pets-pr-5",
      "specs-stores-pr-5",
    ]);
  });

  it("does not double the comment when the answer to its POST is lost", async () => {
    await startAzure();
    azure.fail({ method: "POST", path: THREADS }, { applyThenDrop: true });

    const run = await sync(["--json"], pipelineEnv());

    expect(run.code).toBe(0);
    expect(calls("POST")).toHaveLength(1);
    expect(ours()).toHaveLength(1);
    expect(run.stderr).toMatch(/Pull request comment created: .*discussionId=/);
  });

  it("sends the job's token only to the collection, and the GitBook token only to GitBook", async () => {
    await startAzure();
    const before = emulator().requests.length;

    expect((await sync(["--json"], pipelineEnv())).code).toBe(0);

    expect(azure.requests.length).toBeGreaterThan(2);
    for (const request of azure.requests) {
      expect(request.origin).toBe(new URL(azure.collectionUri).origin);
      expect(request.url.startsWith("/fabrikam/")).toBe(true);
      expect(request.authorization).toBe(`Bearer ${FAKE_AZURE_TOKEN}`);
      expect(request.body).not.toContain(TOKEN);
    }
    const gitbook = emulator().requests.slice(before);
    expect(gitbook.length).toBeGreaterThan(0);
    expect(gitbook.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("refuses a collection URI a token must not travel to, naming the variable, and sends nothing", async () => {
    await startAzure();
    for (const uri of ["http://azure.example/fabrikam/", "https://user:secret@dev.azure.com/fabrikam/"]) {
      const run = await sync(["--json"], pipelineEnv({ SYSTEM_COLLECTIONURI: uri }));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("SYSTEM_COLLECTIONURI");
      expect(run.stderr).not.toContain("secret@");
    }
    const run = await sync(["--json"], pipelineEnv({ SYSTEM_PULLREQUEST_PULLREQUESTID: "5x" }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("SYSTEM_PULLREQUEST_PULLREQUESTID");
    expect(azure.requests).toEqual([]);
  });

  it("takes a 203 sign-in page for a refused token: a warning with the setup, nothing written", async () => {
    await startAzure({ signInPageAlways: true });

    const run = await sync(["--json"], pipelineEnv({ SYSTEM_ACCESSTOKEN: "expired-token-0123456789" }));

    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/connectionData answered HTTP 203 with a sign-in page/);
    expect(run.stderr).toContain("Contribute to pull requests");
    expect(run.stderr).not.toContain("expired-token-0123456789");
    expect(azure.requests.map((r) => r.path)).toEqual(["/_apis/connectionData"]);
    expect(azure.threads(5)).toEqual([]);
  });

  it("says how to map SYSTEM_ACCESSTOKEN when the step lacks it, and still previews", async () => {
    await startAzure();
    const env = pipelineEnv({ SYSTEM_PULLREQUEST_PULLREQUESTID: "9" });
    delete (env as Partial<Record<string, string>>).SYSTEM_ACCESSTOKEN;

    const run = await sync(["--json"], env);

    expect(run.code).toBe(0);
    expect(results(run).map((r) => r.status)).toEqual(["published", "published"]);
    expect(run.stderr).toContain("SYSTEM_ACCESSTOKEN: $(System.AccessToken)");
    expect(azure.requests).toEqual([]);
  });

  it("finds its comment on a later page and ignores deleted and system comments with its marker", async () => {
    await startAzure({ pageSize: 2 });
    const marker = `${commentMarker("default")}\nold`;
    const deleted = azure.seedThread(5, [{ content: marker, author: FAKE_AZURE_BUILD_SERVICE }]);
    azure.deleteComment(5, deleted.id, 1);
    azure.seedThread(5, [{ content: marker, author: FAKE_AZURE_SYSTEM, commentType: "system" }]);
    for (const n of [1, 2, 3]) azure.seedThread(5, [{ content: `review ${n}` }]);
    const first = await sync(["--json"], pipelineEnv());
    expect(first.code).toBe(0);
    for (const n of [4, 5]) azure.seedThread(5, [{ content: `review ${n}` }]);

    const second = await sync(["--json"], pipelineEnv());

    expect(second.code).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(calls("POST")).toHaveLength(1);
    expect(calls("PATCH")).toHaveLength(0); // unchanged body: nothing to edit
    expect(azure.requests.some((r) => r.query.has("continuationToken"))).toBe(true);
    expect(azure.threads(5).find((t) => t.id === deleted.id)?.comments[0]?.content).toBe(marker);
  });

  it("waits as a 429's Retry-After says, then writes the comment", async () => {
    await startAzure();
    azure.fail({ method: "GET", path: THREADS }, { status: 429, retryAfter: 0 });

    const run = await sync(["--json"], pipelineEnv());

    expect(run.code).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(calls("GET").filter((r) => THREADS.test(r.path)).length).toBeGreaterThanOrEqual(3);
  });
});

describe("a scheduled cleanup job on Azure Pipelines", () => {
  it("deletes only that pull request's previews and says so in its comment", async () => {
    await startAzure();
    expect((await sync(["--json"], pipelineEnv())).code).toBe(0);
    const six = await sync(["--json"], pipelineEnv({ SYSTEM_PULLREQUEST_PULLREQUESTID: "6" }));
    expect(results(six).map((r) => r.slug)).toEqual(["specs-pets-pr-6", "specs-stores-pr-6"]);
    const scheduled = pipelineEnv({ BUILD_REASON: "Schedule", BUILD_SOURCEVERSION: mergeCommit });
    delete (scheduled as Partial<Record<string, string>>).SYSTEM_PULLREQUEST_PULLREQUESTID;

    const cleanup = await sync(["--mode", "cleanup", "--merge-request", "5", "--json"], scheduled);

    expectFiveCleanedUp(cleanup);
    expect(ours(5)).toHaveLength(1);
    expect(ours(5)[0]?.body).toContain("### 🧹");
    expect(ours(6)).toHaveLength(1);
  });
  it("without a pull request, sweeps the closed ones: deletes their previews, keeps open ones", async () => {
    await startAzure();
    expect((await sync(["--json"], pipelineEnv())).code).toBe(0);
    expect((await sync(["--json"], pipelineEnv({ SYSTEM_PULLREQUEST_PULLREQUESTID: "6" }))).code).toBe(0);
    azure.setPullRequest(5, "completed");
    azure.setPullRequest(6, "active");
    const scheduled = pipelineEnv({ BUILD_REASON: "Schedule" });
    delete (scheduled as Partial<Record<string, string>>).SYSTEM_PULLREQUEST_PULLREQUESTID;

    const sweep = await sync(["--mode", "cleanup", "--json"], scheduled);

    expectFiveCleanedUp(sweep);
    expect(sweep.stderr).toContain("1 closed pull request(s) cleaned up (#5), 1 open");
    expect(ours(5)[0]?.body).toContain("### 🧹");
  });
});

/** `run` deleted the previews of pull request 5 and kept those of 6. */
function expectFiveCleanedUp(run: CliRun): void {
  expect(run.code).toBe(0);
  expect(results(run).map((r) => [r.slug, r.status])).toEqual([
    ["specs-pets-pr-5", "deleted"],
    ["specs-stores-pr-5", "deleted"],
  ]);
  expect(emulator().getSpec(ORG, "specs-pets-pr-5")).toBeUndefined();
  expect(emulator().getSpec(ORG, "specs-pets-pr-6")).toBeDefined();
}

describe("the pull request state port on Azure Pipelines", () => {
  it("answers open for an active pull request and closed for a completed or abandoned one", async () => {
    await startAzure();
    azure.setPullRequest(5, "active");
    azure.setPullRequest(6, "completed");
    azure.setPullRequest(7, "abandoned");
    const states = readCiRun(pipelineEnv(), workspace, undefined).pullRequestStates?.(Date.now() + 30_000);
    if (!states) throw new Error("expected the state port on Azure Repos");

    expect(await states.state(5)).toBe("open");
    expect(await states.state(6)).toBe("closed");
    expect(await states.state(7)).toBe("closed");
    await expect(states.state(8)).rejects.toThrow(/pullRequests\/8 answered HTTP 404/);
    expect(azure.requests.every((r) => r.query.get("api-version") === "7.1")).toBe(true);
  });

  it("is offered only for Azure Repos with the job's token", async () => {
    await startAzure();
    const deadline = Date.now() + 30_000;
    const on = (env: Record<string, string>) =>
      readCiRun(env, workspace, undefined).pullRequestStates?.(deadline);
    expect(on(pipelineEnv({ BUILD_REPOSITORY_PROVIDER: "GitHub" }))).toBeUndefined();
    expect(on(pipelineEnv({ SYSTEM_ACCESSTOKEN: "" }))).toBeUndefined();
    expect(readCiRun({}, workspace, undefined).pullRequestStates?.(deadline)).toBeUndefined();
  });
});
