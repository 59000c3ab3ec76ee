/**
 * A pull request whose head spec fails validation still gets its API change review (issue 27): the
 * spec parses and bundles, so its changes are compared with the base commit. The spec itself fails and
 * nothing of it is uploaded; its breaking change is in the results, the comment and the summary: the
 * Action on a pull request (fake GitHub), and the CLI in a GitLab merge-request pipeline (fake GitLab).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { FAKE_GITLAB_TOKEN, startFakeGitLab } from "../../harness/fakes/fake-gitlab.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { specChangeLine } from "../../src/core/change-review/change-line.ts";
import type { SpecChange } from "../../src/core/result.ts";
import { runCli } from "../cli/run-cli.ts";
import { resultsValidator } from "../report/results-schema.ts";
import { git } from "../support/git.ts";
import { emptyWorkspace, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const BASE = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok}
    delete:
      operationId: deletePets
      responses:
        "204": {description: deleted}
`;

/** `DELETE /pets` removed, and `info.title` gone: a spec GitBook cannot take, whatever the settings. */
const HEAD = `openapi: 3.0.3
info: {version: "2"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok}
`;

/** The emulator and a checkout whose head commit makes `api/pets.yaml` the invalid HEAD. */
async function setup() {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  const dir = await emptyWorkspace({ "api/pets.yaml": BASE });
  cleanups.push(
    () => api.close(),
    () => removeWorkspace(dir),
  );
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  await writeFile(path.join(dir, "api/pets.yaml"), HEAD);
  git(dir, "commit", "-q", "-am", "head");
  return { api, dir, base, head: git(dir, "rev-parse", "HEAD") };
}

describe("a preview whose head spec fails validation", () => {
  it("fails the spec, uploads nothing, and still lists its breaking change", async () => {
    const { api, dir, base, head } = await setup();
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const repo = { full_name: "acme/widgets" };
    const pullRequest = {
      number: 9,
      head: { sha: head, ref: "feature", repo },
      base: { sha: base, ref: "main", repo },
    };

    const result = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
      githubToken: "ghs_fakeGitHubToken123",
      eventName: "pull_request",
      eventPayload: { action: "synchronize", number: 9, pull_request: pullRequest },
      env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: head, GITHUB_API_URL: github.apiUrl },
    });

    expect(result.exitCode).toBe(1);
    expect(resultsValidator()(JSON.parse(result.outputs.results ?? ""))).toEqual([]);
    const [pets] = JSON.parse(result.outputs.results ?? "[]") as {
      slug: string;
      status: string;
      changes?: { against: string; breaking: SpecChange[] };
    }[];
    expect(pets?.status).toBe("failed");
    expect(api.listSpecs("demo-org")).toEqual([]);
    expect(pets?.changes?.against).toBe("base commit");
    expect(pets?.changes?.breaking.map(specChangeLine).join("\n")).toMatch(/DELETE \/pets/);
    const comment = github.comments(9)[0]?.body ?? "";
    expect(comment).toContain("#### API changes");
    expect(comment).toMatch(/api\/pets\.yaml\*\*: ⚠️ 1 breaking in 1 operation/);
    expect(comment).toContain("- **DELETE /pets** (deletePets)");
    expect(result.summary).toContain("#### API changes");
  });

  it("on the command line in a GitLab merge request: the spec fails, its breaking change is in the note", async () => {
    const { api, dir, base, head } = await setup();
    const gitlab = await startFakeGitLab();
    cleanups.push(() => gitlab.close());

    const run = await runCli(["sync", "--json", "--organization", "demo-org", "--api-url", api.baseUrl], {
      cwd: dir,
      env: {
        GITBOOK_TOKEN: api.token,
        GITLAB_CI: "true",
        CI_API_V4_URL: gitlab.apiUrl,
        CI_PROJECT_ID: "77",
        CI_PROJECT_PATH: "acme/api",
        CI_PROJECT_NAME: "api",
        CI_PROJECT_DIR: dir,
        CI_COMMIT_SHA: head,
        CI_PIPELINE_SOURCE: "merge_request_event",
        CI_MERGE_REQUEST_IID: "5",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
      },
    });

    expect(run.code).toBe(1);
    const [pets] = JSON.parse(run.stdout) as {
      status: string;
      changes?: { against: string; breaking: SpecChange[] };
    }[];
    expect(pets?.status).toBe("failed");
    expect(api.listSpecs("demo-org")).toEqual([]);
    expect(pets?.changes?.breaking.map(specChangeLine).join("\n")).toMatch(/DELETE \/pets/);
    const note = gitlab.notes(5)[0]?.body ?? "";
    expect(note).toMatch(/api\/pets\.yaml\*\*: ⚠️ 1 breaking in 1 operation/);
    expect(note).toContain("- **DELETE /pets** (deletePets)");
  });
});
