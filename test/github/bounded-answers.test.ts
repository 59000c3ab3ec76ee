/**
 * A GitHub that answers the comment listing with 50 MB, met by the action as the runner starts it: the
 * answer is refused as it streams, the warning names the call, the size and the cap, and the run
 * publishes its previews and succeeds (the comment is best-effort). Issue 16, "every read bounded".
 */
import { afterEach, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "../e2e/helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("goes on without the comment when GitHub answers the comment listing with 50 MB", async () => {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  const github = await startFakeGitHub();
  const workspace = await emptyWorkspace({ "openapi.yaml": minimalSpec("Widgets") });
  cleanups.push(
    () => api.close(),
    () => github.close(),
    () => removeWorkspace(workspace),
  );
  github.fail({ method: "GET", path: /\/issues\/7\/comments$/ }, { hugeBody: 50_000_000 }, 10);

  const result = await runActionInProcess({
    workspace,
    inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
    githubToken: "ghs_fakeGitHubToken123",
    eventName: "pull_request",
    eventPayload: {
      action: "opened",
      number: 7,
      pull_request: {
        number: 7,
        head: { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
        base: { ref: "main", repo: { full_name: "acme/widgets" } },
      },
    },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "c".repeat(40), GITHUB_API_URL: github.apiUrl },
  });

  expect(result.exitCode).toBe(0);
  expect(api.getSpec("demo-org", "widgets-pr-7")).toBeDefined();
  const warnings = result.annotations.filter((a) => a.level === "warning").map((a) => a.message);
  expect(warnings).toContainEqual(
    expect.stringContaining(
      "GitHub GET /repos/acme/widgets/issues/7/comments answered more than 32 MiB, over the 32 MiB allowed for a page of comments; the answer was not read.",
    ),
  );
  expect(warnings.some((w) => w.startsWith("Could not write the pull request comment"))).toBe(true);
  expect(github.comments(7)).toEqual([]);
  expect(github.requests.filter((r) => r.method === "POST" && r.path !== "/graphql")).toEqual([]);
});
