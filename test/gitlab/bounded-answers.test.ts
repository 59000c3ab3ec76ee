/**
 * A GitLab that answers the note listing with 50 MB, met by `gitbook-openapi sync` in a merge request
 * pipeline: the answer is refused as it streams, the warning names the call, the size and the cap, and
 * the run publishes its previews and succeeds (the note is best-effort). Issue 16, "every read bounded".
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { FAKE_GITLAB_TOKEN, startFakeGitLab } from "../../harness/fakes/fake-gitlab.ts";
import { runCli } from "../cli/run-cli.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("goes on without the note when GitLab answers the note listing with 50 MB", async () => {
  const api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  const gitlab = await startFakeGitLab();
  const workspace = await mkdtemp(path.join(tmpdir(), "gitlab-bounded-"));
  cleanups.push(
    () => api.close(),
    () => gitlab.close(),
    () => rm(workspace, { recursive: true, force: true }),
  );
  await mkdir(path.join(workspace, "specs"));
  await writeFile(
    path.join(workspace, "specs", "pets.yaml"),
    "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n",
  );
  gitlab.fail({ method: "GET", path: /\/merge_requests\/5\/notes$/ }, { hugeBody: 50_000_000 }, 10);

  const run = await runCli(["sync", "--workspace", workspace], {
    env: {
      GITBOOK_TOKEN: api.token,
      GITBOOK_API_URL: api.baseUrl,
      GITBOOK_ORGANIZATION: "demo-org",
      GITLAB_CI: "true",
      CI_API_V4_URL: gitlab.apiUrl,
      CI_PROJECT_ID: "77",
      CI_PROJECT_NAME: "api",
      CI_PROJECT_DIR: workspace,
      CI_PIPELINE_SOURCE: "merge_request_event",
      CI_MERGE_REQUEST_IID: "5",
      GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
    },
  });

  expect(run.code).toBe(0);
  expect(api.getSpec("demo-org", "specs-pets-mr-5")).toBeDefined();
  expect(run.stderr).toContain(
    "GitLab GET /api/v4/projects/77/merge_requests/5/notes answered more than 32 MiB, over the 32 MiB allowed for a page of notes; the answer was not read.",
  );
  expect(run.stderr).toContain("Could not write the note on merge request !5");
  expect(gitlab.notes(5)).toEqual([]);
  expect(gitlab.requests.filter((r) => r.method === "POST")).toEqual([]);
});
