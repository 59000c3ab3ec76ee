import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { ActionHost } from "../../src/hosts/action/host.ts";
import { runAction } from "../../src/hosts/action/run.ts";

let workspace = "";
afterEach(() => rm(workspace, { recursive: true, force: true }));

function fakeHost(inputs: Record<string, string>) {
  const outputs: Record<string, string> = {};
  const failures: string[] = [];
  const host: ActionHost = {
    readInput: (name) => inputs[name] ?? "",
    setSecret: () => {},
    setOutput: (name, value) => {
      outputs[name] = value;
    },
    appendSummary: async () => {},
    setFailed: (message) => {
      failures.push(message);
    },
    logger: new MemoryLogger(),
    env: { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_NAME: "push", GITHUB_REPOSITORY: "acme/widgets" },
    readFile: () => "{}",
  };
  return { host, outputs, failures };
}

describe("runAction", () => {
  it("keeps check-mode lookups within the concurrency limit too", async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "run-"));
    for (let i = 0; i < 12; i++) {
      await writeFile(
        path.join(workspace, `s${i}.yaml`),
        `openapi: 3.1.0\ninfo: {title: S${i}, version: '1'}\npaths: {}\n`,
      );
    }
    const service = new FakeSpecService({ callDelayMs: 2 });
    const { host, outputs, failures } = fakeHost({
      token: "t",
      organization: "org",
      mode: "check",
      concurrency: "3",
    });
    await runAction(host, {
      createService: () => service,
      createComments: () => undefined,
      clock: new InstantClock(),
    });
    expect(failures).toEqual([]);
    expect(JSON.parse(outputs.results ?? "[]")).toHaveLength(12);
    expect(service.calls.filter((call) => call.startsWith("GET org/"))).toHaveLength(12);
    expect(service.maxInFlight).toBe(3);
  });
});
