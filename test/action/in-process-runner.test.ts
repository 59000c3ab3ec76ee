/**
 * The in-process runner (harness/runner/in-process-action.ts), which most end-to-end tests of the action
 * use, against the action as the GitHub runner starts it: the same run writes the same log, workflow
 * commands (masks, groups, annotations with their properties, the failure), outputs and job summary.
 * Only times differ, and the order of the specs' groups (each is written as it ends).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { type RunnerOptions, runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { emptyWorkspace, flatGroups, minimalSpec, removeWorkspace } from "../e2e/helpers.ts";

/** A spec whose problem is annotated at its file, line and column; its percent sign is escaped. */
const INVALID =
  "openapi: 3.1.0\ninfo: {title: 'Orders: 100% sure, really', version: '1'}\npaths:\n" +
  "  /orders: {get: {parameters: [{name: id}], responses: {'200': {description: ok}}}}\n";

let api: RunningEmulator;
let workspace: string;
beforeAll(async () => {
  api = await startEmulator();
  workspace = await emptyWorkspace({
    "orders, 50%.yaml": INVALID,
    "valid.yaml": minimalSpec("Valid"),
    "broken.yaml": "openapi: 3.1.0\ninfo: [unclosed\n",
  });
});
afterAll(async () => {
  await api.close();
  await removeWorkspace(workspace);
});

const withoutTimes = (text: string) => text.replace(/\b\d+(\.\d+)? (ms|s)\b/g, "(a time)");
const sorted = <T>(items: readonly T[]) => items.map((item) => JSON.stringify(item)).sort();

/** The log without its times: the lines outside groups in order, the groups (ending in any order) sorted. */
function logOf(stdout: string) {
  const text = withoutTimes(stdout);
  return {
    outside: text.replace(/^::group::[\s\S]*?^::endgroup::$/gm, "").split("\n"),
    groups: sorted(flatGroups(text)),
  };
}

describe("the action in this process", () => {
  it("writes what the action started as a process writes", async () => {
    const options: RunnerOptions = {
      workspace,
      // A check with a token: GitBook is read, never written, so both runs see the same organization.
      inputs: { mode: "check", token: api.token, organization: "demo-org", "api-url": api.baseUrl },
      env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "c".repeat(40) },
    };
    const [started, inProcess] = await Promise.all([
      runActionLikeRunner(options),
      runActionInProcess(options),
    ]);

    expect(started.exitCode).toBe(1);
    expect(started.stderr).toBe("");
    expect(started.stdout).toContain(`::add-mask::${api.token}`);
    expect(started.annotations, started.stdout).toContainEqual(
      expect.objectContaining({ level: "warning", file: "orders, 50%.yaml", line: 4 }),
    );
    expect(inProcess.exitCode).toBe(started.exitCode);
    expect(logOf(inProcess.stdout)).toEqual(logOf(started.stdout));
    expect(sorted(inProcess.annotations)).toEqual(sorted(started.annotations));
    expect(sorted(inProcess.groups)).toEqual(sorted(started.groups));
    expect(JSON.parse(withoutTimes(JSON.stringify(inProcess.outputs)))).toEqual(
      JSON.parse(withoutTimes(JSON.stringify(started.outputs))),
    );
    expect(withoutTimes(inProcess.summary)).toBe(withoutTimes(started.summary));
  });
});
