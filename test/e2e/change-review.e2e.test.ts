/**
 * API change review on a pull request over two real commits: the base has two paths, the head removes
 * one and adds a required parameter to the other. The comment and the summary list both as breaking;
 * `fail-on-breaking` fails the job, and `breaking-allowed` accepts one on purpose.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { specChangeLine } from "../../src/core/change-review/change-line.ts";
import type { SpecChange } from "../../src/core/result.ts";
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
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: ok}
`;

const HEAD = `openapi: 3.0.3
info: {title: Pets, version: "2"}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: owner, in: query, required: true, schema: {type: string}}
      responses:
        "200": {description: ok}
`;

async function setup() {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  const github = await startFakeGitHub();
  const dir = await emptyWorkspace({ "api/pets.yaml": BASE, "api/old.yaml": BASE.replace("Pets", "Old") });
  cleanups.push(
    () => api.close(),
    () => github.close(),
    () => removeWorkspace(dir),
  );
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  await writeFile(path.join(dir, "api/pets.yaml"), HEAD);
  git(dir, "rm", "-q", "api/old.yaml");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "head");
  const head = git(dir, "rev-parse", "HEAD");
  return { api, github, dir, base, head };
}

function run(s: Awaited<ReturnType<typeof setup>>, inputs: Record<string, string> = {}) {
  const pullRequest = {
    number: 9,
    head: { sha: s.head, ref: "feature", repo: { full_name: "acme/widgets" } },
    base: { sha: s.base, ref: "main", repo: { full_name: "acme/widgets" } },
  };
  return runActionInProcess({
    workspace: s.dir,
    inputs: { token: s.api.token, organization: "demo-org", "api-url": s.api.baseUrl, ...inputs },
    githubToken: "ghs_fakeGitHubToken123",
    eventName: "pull_request",
    eventPayload: { action: "synchronize", number: 9, pull_request: pullRequest },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: s.head, GITHUB_API_URL: s.github.apiUrl },
  });
}

describe("API change review on a pull request", () => {
  it("lists the removed path and the new required parameter as breaking, against the base commit", async () => {
    const s = await setup();
    const result = await run(s);
    expect(result.exitCode).toBe(0);
    const [pets] = JSON.parse(result.outputs.results ?? "[]") as {
      slug: string;
      changes: { against: string; breaking: SpecChange[]; other: SpecChange[] };
    }[];
    expect(pets?.slug).toBe("api-pets-pr-9");
    expect(pets?.changes.against).toBe("base commit");
    const breaking = pets?.changes.breaking.map(specChangeLine).join("\n");
    expect(breaking).toMatch(/\/pets\/\{id\}/);
    expect(breaking).toMatch(/owner/);
    const comment = s.github.comments(9)[0]?.body ?? "";
    expect(comment).toContain("#### API changes");
    expect(comment).toMatch(/api\/pets\.yaml\*\*: ⚠️ 2 breaking in 2 operations, 0 other changes/);
    // Each breaking change under its operation (or path), the operation's id beside it.
    const grouped = comment.split("\n");
    const listPets = grouped.indexOf("- **GET /pets** (listPets)");
    expect(listPets).toBeGreaterThan(0);
    expect(grouped[listPets + 1]).toMatch(/^ {2}- .*owner/);
    expect(grouped).toContain("- **/pets/\\{id\\}**");
    expect(comment).toContain("**Removed specs** (breaking): 1");
    expect(comment).toContain("api/old.yaml");
    expect(result.summary).toContain("#### API changes");
  });

  it("fails the job with fail-on-breaking, saying which; an allow-list accepts changes on purpose", async () => {
    const s = await setup();
    const failing = await run(s, { "fail-on-breaking": "true" });
    expect(failing.exitCode).toBe(1);
    const error = failing.annotations
      .filter((a) => a.level === "error")
      .map((a) => a.message)
      .join("\n");
    expect(error).toMatch(/breaking API change/);
    expect(error).toContain("api/old.yaml: the spec was removed");

    const allowed = await run(s, { "fail-on-breaking": "true", "breaking-allowed": "/pets/{id}\nGET /pets" });
    const [pets] = JSON.parse(allowed.outputs.results ?? "[]") as {
      changes: { breaking: SpecChange[]; allowed: SpecChange[] };
    }[];
    expect(pets?.changes.breaking).toEqual([]);
    expect(pets?.changes.allowed.length).toBeGreaterThanOrEqual(2);
    // The removed spec is still breaking: it has no operation to allow.
    expect(allowed.exitCode).toBe(1);
  });

  it("compares with the published version when the base commit cannot be had, and says so", async () => {
    const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
    const github = await startFakeGitHub();
    const dir = await emptyWorkspace({ "api/pets.yaml": BASE });
    cleanups.push(
      () => api.close(),
      () => github.close(),
      () => removeWorkspace(dir),
    );
    const inputs = { token: api.token, organization: "demo-org", "api-url": api.baseUrl };
    const env = {
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_SHA: "e".repeat(40),
      GITHUB_API_URL: github.apiUrl,
    };
    const published = await runActionInProcess({ workspace: dir, inputs, env });
    expect(published.exitCode).toBe(0);

    await writeFile(path.join(dir, "api/pets.yaml"), HEAD);
    const pullRequest = {
      number: 4,
      head: { sha: "e".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
      base: { sha: "d".repeat(40), ref: "main", repo: { full_name: "acme/widgets" } },
    };
    const preview = await runActionInProcess({
      workspace: dir, // not a git checkout: the base commit cannot be had
      inputs,
      githubToken: "ghs_fakeGitHubToken123",
      eventName: "pull_request",
      eventPayload: { action: "opened", number: 4, pull_request: pullRequest },
      env,
    });
    expect(preview.exitCode).toBe(0);
    const [pets] = JSON.parse(preview.outputs.results ?? "[]") as {
      changes: { against: string; breaking: SpecChange[] };
    }[];
    expect(pets?.changes.against).toBe("published version");
    expect(pets?.changes.breaking.map((change) => change.operation ?? "").join("\n")).toMatch(
      /\/pets\/\{id\}/,
    );
    expect(github.comments(4)[0]?.body).toContain("Compared with the published versions.");
  });
});
