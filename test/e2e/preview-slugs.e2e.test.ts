/**
 * Issue 25, item 2: previews and live specs never share a slug. A live slug of the preview form
 * (`…-pr-<n>`, `…-mr-<n>`), whether explicit, derived from a path or an audience's, is refused with where
 * it came from and a name to use, so that pull request 7's preview of `api.yaml` (`api-pr-7`) can never
 * overwrite, nor its cleanup delete, a live spec.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { runCli } from "../cli/run-cli.ts";
import { emptyWorkspace, minimalSpec, pullRequest7Payload, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  return dir;
}

describe("a preview cannot take over a live spec", () => {
  it("refuses a live `api-pr-7` on pull request 7: the preview of api.yaml never overwrites it", async () => {
    const api = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 } });
    cleanups.push(() => api.close());
    const live = api.seedSpec("demo-org", "api-pr-7", minimalSpec("Other, live"));
    const dir = await workspace({
      "api.yaml": minimalSpec("Api"),
      "other.yaml": minimalSpec("Other"),
      "gitbook-openapi.yaml": "slugs:\n  other.yaml: api-pr-7\n",
    });

    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl, comment: "false" },
      eventName: "pull_request",
      eventPayload: pullRequest7Payload({}),
      env: { GITHUB_REPOSITORY: "acme/widgets" },
    });

    expect(run.exitCode).toBe(1);
    expect(api.requests).toEqual([]);
    expect(api.getSpec("demo-org", "api-pr-7")).toEqual(live);
    const error = run.annotations.find((a) => a.level === "error")?.message ?? "";
    expect(error).toContain(`"api-pr-7" of "other.yaml" (set by 'slugs' in gitbook-openapi.yaml)`);
    expect(error).toContain(`use "api-pr7"`);
  });

  it("refuses a live slug of the preview form derived from a path, or given to an audience", async () => {
    const dir = await workspace({
      "releases/v2-mr-3.yaml": minimalSpec("Release"),
      "pay.yaml": minimalSpec("Pay"),
      "gitbook-openapi.yaml": "specs:\n  pay.yaml:\n    audiences:\n      public: { slug: pay-pr-12 }\n",
    });

    const run = await runCli(["sync", "--mode", "check", "--workspace", dir]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `"pay-pr-12" of "pay.yaml" (its \`slug\` in the configuration file's \`specs:\` entry, audience 'public'): use "pay-pr12"`,
    );
    expect(run.stderr).toContain(
      `"releases-v2-mr-3" of "releases/v2-mr-3.yaml" (derived from the file's path): use "releases-v2-mr3"`,
    );
  });
});
