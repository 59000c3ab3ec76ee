/**
 * `gitbook-openapi sync` as a shell runs it (argv, env, exit codes, stdout/stderr) against the emulator
 * over loopback, and in a GitLab merge-request pipeline against the fake GitLab API.
 */

import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import {
  FAKE_GITLAB_BOT,
  FAKE_GITLAB_TOKEN,
  type FakeGitLab,
  startFakeGitLab,
} from "../../harness/fakes/fake-gitlab.ts";
import { commentMarker } from "../../src/core/report/comment-state.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { git as gitIn } from "../support/git.ts";
import { CLI_SOURCE, type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "cli-sync-token-8d2e6f1a0c";
const ORG = "demo-org";

let emulator: RunningEmulator;
let workspace: string;

const spec = (title: string, version = "1.0.0") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: ${version}\npaths: {}\n`;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-cli-sync-"));
  await mkdir(path.join(workspace, "specs"), { recursive: true });
  await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
  await writeFile(path.join(workspace, "specs", "stores.yaml"), spec("Stores"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** In process; `entry` runs it as a new Node process instead (a shell's argv, env and exit code). */
function sync(args: string[], env: Record<string, string> = {}, entry?: string): Promise<CliRun> {
  return runCli(["sync", "--workspace", workspace, ...args], {
    env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: ORG, ...env },
    ...(entry === undefined ? {} : { entry }),
  });
}

function results(run: CliRun): SpecResult[] {
  return JSON.parse(run.stdout) as SpecResult[];
}

describe("gitbook-openapi sync", () => {
  it("publishes every spec, prints only JSON on stdout with --json, and writes a JUnit report (as a process)", async () => {
    const junit = path.join(workspace, "reports", "gitbook.xml");
    const run = await sync(["--json", "--junit", junit, "--slug-prefix", "cli"], {}, CLI_SOURCE);
    expect(run.code).toBe(0);
    expect(results(run).map((r) => [r.file, r.slug, r.status])).toEqual([
      ["specs/pets.yaml", "cli-specs-pets", "published"],
      ["specs/stores.yaml", "cli-specs-stores", "published"],
    ]);
    expect(emulator.getSpec(ORG, "cli-specs-pets")).toBeDefined();
    expect(run.stderr).toContain("Plan (publish): 2 specs");
    expect(run.stderr).not.toContain(TOKEN);

    const report = new XMLParser({ ignoreAttributes: false }).parse(await readFile(junit, "utf8"));
    const cases = [report.testsuites.testsuite.testcase].flat();
    expect(cases.map((c: Record<string, string>) => c["@_name"])).toEqual([
      "cli-specs-pets",
      "cli-specs-stores",
    ]);
    expect(cases.some((c: Record<string, unknown>) => "failure" in c)).toBe(false);
  });

  it("exits 1 when a spec fails, with the reason in the JUnit report and on stderr", async () => {
    await writeFile(path.join(workspace, "specs", "broken.yaml"), "openapi: 3.1.0\ninfo: [\n");
    const junit = path.join(workspace, "junit.xml");
    const run = await sync(["--junit", junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    // The place once (issue 19: it was printed twice).
    expect(run.stderr).toMatch(/error: specs\/broken\.yaml:\d+:\d+: YAML syntax error/);
    expect(run.stderr).not.toMatch(/specs\/broken\.yaml:\d+:\d+: specs\/broken\.yaml/);
    const report = new XMLParser({ ignoreAttributes: false }).parse(await readFile(junit, "utf8"));
    const failed = [report.testsuites.testsuite.testcase]
      .flat()
      .find((c: Record<string, string>) => c["@_name"] === "specs-broken");
    expect(failed.failure["@_type"]).toBe("SYNTAX_ERROR");
  });

  it("checks without a token in --mode check and writes nothing", async () => {
    const before = emulator.requests.length;
    const run = await runCli(["sync", "--workspace", workspace, "--mode", "check", "--json"], {
      env: { GITBOOK_API_URL: emulator.baseUrl },
    });
    expect(run.code).toBe(0);
    expect(results(run).map((r) => r.status)).toEqual(["planned", "planned"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("exits 2 on a usage or input error, naming the flag or variable", async () => {
    const bad = await sync(["--concurrency", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--concurrency");
    const preview = await sync(["--mode", "preview"]);
    expect(preview.code).toBe(2);
    expect(preview.stderr).toContain("--merge-request");
    const collision = await sync([
      "--slug",
      "specs/pets.yaml=same",
      "--slug",
      "specs/stores.yaml=same",
      "--json",
    ]);
    expect(collision.code).toBe(2);
    expect(results(collision).map((r) => r.errorCode)).toEqual(["SLUG_COLLISION", "SLUG_COLLISION"]);
    expect(collision.stderr).toContain("--slug 'specs/stores.yaml=same-2'");
    const url = await sync(["--source", "url"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--source: 'url' needs the file's address");
    const unknown = await sync(["--slug", "specs/missing.yaml=x"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--slug maps "specs/missing.yaml", which is not one of the specifications found',
    );
  });

  it("exits 3 when the service refuses the token", async () => {
    const run = await sync([], { GITBOOK_TOKEN: "not-the-token-1234567" });
    expect(run.code).toBe(3);
    expect(run.stderr).not.toContain("not-the-token-1234567");
  });
});

describe("gitbook-openapi sync in a GitLab merge-request pipeline", () => {
  let gitlab: FakeGitLab;
  beforeEach(async () => {
    gitlab = await startFakeGitLab();
  });
  afterEach(async () => {
    await gitlab.close();
  });

  const gitlabEnv = (iid: string): Record<string, string> => ({
    GITLAB_CI: "true",
    CI_API_V4_URL: gitlab.apiUrl,
    CI_PROJECT_ID: "77",
    CI_PROJECT_PATH: "acme/api",
    CI_PROJECT_NAME: "api",
    CI_PROJECT_DIR: workspace,
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_MERGE_REQUEST_IID: iid,
    GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
  });

  it("previews as <slug>-mr-<iid>, keeps one note edited in place, and cleans up", async () => {
    gitlab.seedNotes(21, [`${commentMarker("default")}\nI am not the bot`]);
    const first = await sync(["--json"], gitlabEnv("21"));
    expect(first.code).toBe(0);
    expect(results(first).map((r) => r.slug)).toEqual(["specs-pets-mr-21", "specs-stores-mr-21"]);
    expect(first.stderr).toContain("section_start:");
    const second = await sync(["--json"], gitlabEnv("21"));
    expect(second.code).toBe(0);

    const notes = gitlab.notes(21);
    const ours = notes.filter((note) => note.author.id === FAKE_GITLAB_BOT.id);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain("specs-pets-mr-21");
    expect(notes.find((note) => note.author.id !== FAKE_GITLAB_BOT.id)?.body).toContain("I am not the bot");
    expect(gitlab.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
    expect(gitlab.requests.every((r) => r.path === "/user" || r.path.startsWith("/projects/77/"))).toBe(true);

    const cleanup = await sync(["--mode", "cleanup", "--merge-request", "21", "--json"], {
      ...gitlabEnv(""),
      CI_PIPELINE_SOURCE: "web",
    });
    expect(cleanup.code).toBe(0);
    expect(results(cleanup).map((r) => [r.slug, r.status])).toEqual([
      ["specs-pets-mr-21", "deleted"],
      ["specs-stores-mr-21", "deleted"],
    ]);
    expect(emulator.getSpec(ORG, "specs-pets-mr-21")).toBeUndefined();
  });
});

describe("gitbook-openapi sync: API change review in a GitLab merge request", () => {
  let gitlab: FakeGitLab;
  beforeEach(async () => {
    gitlab = await startFakeGitLab();
  });
  afterEach(async () => {
    await gitlab.close();
  });

  const git = (...args: string[]) => gitIn(workspace, ...args);

  it("lists breaking changes against the diff base in the note, and --fail-on-breaking exits 1", async () => {
    const withPath =
      "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n";
    await writeFile(path.join(workspace, "specs", "pets.yaml"), withPath);
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    const base = git("rev-parse", "HEAD");
    await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
    git("commit", "-q", "-am", "head");
    const env = {
      GITLAB_CI: "true",
      CI_API_V4_URL: gitlab.apiUrl,
      CI_PROJECT_ID: "77",
      CI_PROJECT_NAME: "api",
      CI_PROJECT_DIR: workspace,
      CI_PIPELINE_SOURCE: "merge_request_event",
      CI_MERGE_REQUEST_IID: "5",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      CI_PROJECT_URL: "https://gitlab.example/acme/api",
      CI_COMMIT_SHA: git("rev-parse", "HEAD"),
      GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
    };
    const run = await sync(["--json", "--fail-on-breaking"], env);
    expect(run.code).toBe(1);
    const pets = results(run).find((r) => r.file === "specs/pets.yaml");
    expect(pets?.changes?.against).toBe("base commit");
    expect(pets?.changes?.breaking.map((change) => change.operation ?? "").join(" ")).toContain("/pets");
    expect(run.stderr).toMatch(/API changes in specs\/pets\.yaml \(against the base commit\): 1 breaking/);
    const note = gitlab.notes(5).find((n) => n.author.id === FAKE_GITLAB_BOT.id);
    expect(note?.body).toContain("#### API changes");
    expect(note?.body).toMatch(/specs\/pets\.yaml\*\*: ⚠️ 1 breaking in 1 operation/);
    // The removed path: where the head's `paths` is, linked at the head commit, and where the base had it.
    expect(note?.body).toContain(
      `([\`specs/pets.yaml:5\`](https://gitlab.example/acme/api/-/blob/${env.CI_COMMIT_SHA}/specs/pets.yaml#L5); base: [\`specs/pets.yaml:6\`](https://gitlab.example/acme/api/-/blob/${base}/specs/pets.yaml#L6))`,
    );
    expect(pets?.changes?.breaking[0]).toMatchObject({
      file: "specs/pets.yaml",
      line: 5,
      baseFile: "specs/pets.yaml",
      baseLine: 6,
    });
  });
});

describe("gitbook-openapi sync on GitHub Actions", () => {
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub();
  });
  afterEach(async () => {
    await github.close();
  });

  async function githubEnv(action: string): Promise<Record<string, string>> {
    const payload = path.join(workspace, `event-${action}.json`);
    const head = { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } };
    const pullRequest = {
      number: 7,
      merged: false,
      head,
      base: { ref: "main", repo: { full_name: "acme/widgets" } },
    };
    await writeFile(payload, JSON.stringify({ action, number: 7, pull_request: pullRequest }));
    return {
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: payload,
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: "ghs_fakeInstallationToken0123456789",
      GITHUB_WORKSPACE: workspace,
    };
  }

  it("behaves as the action: previews the event's pull request with one comment, cleans up when it closes", async () => {
    const opened = await sync(["--json"], await githubEnv("opened"));
    expect(opened.code).toBe(0);
    expect(results(opened).map((r) => r.slug)).toEqual(["specs-pets-pr-7", "specs-stores-pr-7"]);
    const comments = github.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain("specs-pets-pr-7");
    expect(opened.stderr).not.toContain("ghs_fakeInstallationToken0123456789");

    const closed = await sync(["--json"], await githubEnv("closed"));
    expect(closed.code).toBe(0);
    expect(results(closed).map((r) => [r.slug, r.status])).toEqual([
      ["specs-pets-pr-7", "deleted"],
      ["specs-stores-pr-7", "deleted"],
    ]);
    expect(github.comments(7)).toHaveLength(1);
  });
});
