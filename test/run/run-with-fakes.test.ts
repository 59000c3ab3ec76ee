/**
 * `runSync` with the fakes its ports were made for (harness/fakes/fake-spec-service.ts): an in-memory
 * service and a clock whose sleeps pass at once. A run's deadline is then a fact of the clock, not of
 * the machine: a spec that GitBook never finishes times out after ten minutes of the run's time, in
 * milliseconds of the test's.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { runSync } from "../../src/core/run/run.ts";
import { planOf } from "../support/emulator-run.ts";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "run-with-fakes-"));
  for (const name of ["pets", "stores", "stuck"]) {
    await writeFile(
      path.join(workspace, `${name}.yaml`),
      `openapi: 3.1.0\ninfo: {title: ${name}, version: '1'}\npaths: {}\n`,
    );
  }
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

const slugs = new Map([
  ["pets.yaml", "pets"],
  ["stores.yaml", "stores"],
  ["stuck.yaml", "stuck"],
]);

describe("a run with the fake service and an instant clock", () => {
  it("times out the spec GitBook never finishes at the run's deadline; the others publish", async () => {
    const service = new FakeSpecService({ outcomes: { stuck: { kind: "stuck" } }, pollsToFinish: 3 });
    const clock = new InstantClock();
    const started = clock.now();
    const logger = new MemoryLogger();

    const report = await runSync(planOf({ workspace, slugs, timeoutSeconds: 600 }), {
      createService: () => service,
      clock,
      logger,
    });

    expect(report.results.map((result) => [result.file, result.status])).toEqual([
      ["pets.yaml", "published"],
      ["stores.yaml", "published"],
      ["stuck.yaml", "timed-out"],
    ]);
    expect(clock.now() - started).toBeGreaterThanOrEqual(600_000);
    expect(service.specs.get("stuck")?.processingState).not.toBe("complete");
    expect(logger.messages("error").join("\n")).toContain("stuck.yaml");
  });
});
