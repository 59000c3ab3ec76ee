/**
 * The runner's own files, written by the action: a step whose outputs (GITHUB_OUTPUT) or job summary
 * (GITHUB_STEP_SUMMARY) cannot be written — a full disk, here /dev/full — fails with an error naming the
 * file, never with an unhandled rejection's stack trace, and the run's report is still given.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(existsSync("/dev/full"))("the runner's files on a full disk", () => {
  it("fails the step naming GITHUB_OUTPUT and GITHUB_STEP_SUMMARY; the spec is still published", async () => {
    const api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
    const workspace = await emptyWorkspace({ "openapi.yaml": minimalSpec("Widgets") });
    cleanups.push(
      () => api.close(),
      () => removeWorkspace(workspace),
    );
    const run = await runActionLikeRunner({
      workspace,
      inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
      env: {
        GITHUB_REPOSITORY: "acme/widgets",
        GITHUB_OUTPUT: "/dev/full",
        GITHUB_STEP_SUMMARY: "/dev/full",
      },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toBe("");
    const errors = run.annotations.filter((a) => a.level === "error").map((a) => a.message);
    expect(errors).toEqual([
      "Could not write the step's outputs to /dev/full (GITHUB_OUTPUT): ENOSPC: no space left on device, write",
      "Could not write the job summary to /dev/full (GITHUB_STEP_SUMMARY): ENOSPC: no space left on device, write",
    ]);
    expect(api.getSpec("demo-org", "widgets")?.lastVersion).toBeDefined();
  });
});
