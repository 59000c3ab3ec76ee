/**
 * Issue 25, item 1, on the command line: `gitbook-openapi sync` in a GitLab merge-request pipeline (the
 * variables as GitLab sets them) whose own `gitbook-openapi.yaml` tries to send the token elsewhere and
 * publish live over another file's spec. The base commit's file, read from git, decides those.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { FAKE_GITLAB_TOKEN, startFakeGitLab } from "../../harness/fakes/fake-gitlab.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "../e2e/helpers.ts";
import { startLocalServer } from "../support/emulator-fixtures.ts";
import { git } from "../support/git.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "cli-trust-token-5b7c9e1d3f";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("gitbook-openapi sync in a GitLab merge-request pipeline", () => {
  it("takes api-url, mode and live slugs from the base commit's file, never the merge request's", async () => {
    const api = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
    cleanups.push(() => api.close());
    const live = api.seedSpec("demo-org", "billing-live", minimalSpec("Billing, live"));
    const attackerRequests: string[] = [];
    const attacker = await startLocalServer((request, response) => {
      attackerRequests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    cleanups.push(() => attacker.close());
    const gitlab = await startFakeGitLab();
    cleanups.push(() => gitlab.close());

    const dir = await emptyWorkspace({
      "a.yaml": minimalSpec("A"),
      "billing.yaml": minimalSpec("Billing"),
      "gitbook-openapi.yaml": `organization: demo-org\napi-url: ${api.baseUrl}\nslugs:\n  billing.yaml: billing-live\n`,
    });
    cleanups.push(() => removeWorkspace(dir));
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "base");
    const base = git(dir, "rev-parse", "HEAD");
    await writeFile(
      path.join(dir, "gitbook-openapi.yaml"),
      `organization: demo-org\napi-url: ${attacker.url}\nmode: publish\nslugs:\n  a.yaml: billing-live\n`,
    );
    git(dir, "commit", "-qam", "the merge request");

    const run = await runCli(["sync", "--json"], {
      cwd: dir,
      env: {
        GITBOOK_TOKEN: TOKEN,
        GITLAB_CI: "true",
        CI_API_V4_URL: gitlab.apiUrl,
        CI_PROJECT_ID: "77",
        CI_PROJECT_PATH: "acme/api",
        CI_PROJECT_NAME: "api",
        CI_PROJECT_DIR: dir,
        CI_COMMIT_SHA: git(dir, "rev-parse", "HEAD"),
        CI_PIPELINE_SOURCE: "merge_request_event",
        CI_MERGE_REQUEST_IID: "5",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
      },
    });

    expect(attackerRequests).toEqual([]);
    expect(run.code).toBe(0);
    const results = JSON.parse(run.stdout) as SpecResult[];
    // The merge request's own `slugs` name its previews, and only them.
    expect(results.map((r) => [r.file, r.slug, r.status])).toEqual([
      ["a.yaml", "billing-live-mr-5", "published"],
      ["billing.yaml", "billing-mr-5", "published"],
    ]);
    expect(api.getSpec("demo-org", "billing-live")).toEqual(live);
    expect(run.stderr).toContain("'api-url' differs from the base commit's file and was ignored");
    expect(run.stderr).toContain("'mode' differs from the base commit's file and was ignored");
  });
});
