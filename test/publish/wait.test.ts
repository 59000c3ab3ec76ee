import { describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { DEFAULT_POLL_SCHEDULE } from "../../src/core/publish/poll-schedule.ts";
import { waitForProcessing } from "../../src/core/publish/wait.ts";
import { specFixture } from "../support/spec-fixture.ts";

const base = specFixture();

/** The wait's options: the default schedule, a fixed jitter, and a deadline `ms` from the clock's now. */
const waiting = (service: FakeSpecService, clock: InstantClock, ms: number) => ({
  service,
  clock,
  schedule: DEFAULT_POLL_SCHEDULE,
  deadline: clock.now() + ms,
  random: () => 0.5,
});

describe("waitForProcessing", () => {
  it("needs no poll when the upload's answer already shows this upload processed", async () => {
    const service = new FakeSpecService();
    const clock = new InstantClock();
    const uploaded = { ...base, lastProcessedAt: "2026-01-02T00:00:00.500Z", lastVersion: "v2" };
    const outcome = await waitForProcessing("org", uploaded, waiting(service, clock, 10_000));
    expect(outcome).toEqual({ kind: "processed", spec: uploaded, polls: 0 });
    expect(service.calls).toEqual([]);
  });

  it("polls when the answer is complete but shows the previous processing", async () => {
    const service = new FakeSpecService({ pollsToFinish: 1 });
    service.seed("pets", {
      ...base,
      lastProcessedAt: "2026-01-01T00:00:00.000Z",
      processingState: "pending",
    });
    const clock = new InstantClock();
    const uploaded = { ...base, lastProcessedAt: "2026-01-01T00:00:00.000Z" };
    const outcome = await waitForProcessing("org", uploaded, waiting(service, clock, 10_000));
    expect(outcome.kind).toBe("processed");
    expect(outcome.polls).toBe(1);
    expect(clock.sleeps).toEqual([DEFAULT_POLL_SCHEDULE.firstDelayMs]);
  });

  it("gives up at the deadline, with a last look at it", async () => {
    const service = new FakeSpecService({ outcomes: { pets: { kind: "stuck" } } });
    service.seed("pets", { ...base, processingState: "pending" });
    const clock = new InstantClock();
    const start = clock.now();
    const outcome = await waitForProcessing(
      "org",
      { ...base, processingState: "pending" },
      waiting(service, clock, 5_000),
    );
    expect(outcome.kind).toBe("timed-out");
    expect(clock.now()).toBe(start + 5_000);
    expect(service.calls.at(-1)).toBe("GET org/pets");
  });

  it("reads paced states without sleeping, then, once unpaced (listing failed), polls from the schedule's start", async () => {
    const service = new FakeSpecService();
    const clock = new InstantClock();
    const states = ["pending", "pending", "pending", "progress", "complete"];
    let reads = 0;
    const watch = {
      get paced() {
        return reads < 3;
      },
      read: async () => ({ ...base, processingState: states[reads++] as string }),
      end() {},
    };
    const outcome = await waitForProcessing(
      "org",
      { ...base, processingState: "pending" },
      { ...waiting(service, clock, 60_000), states: { watch: () => watch } },
    );
    expect(outcome).toMatchObject({ kind: "processed", polls: 5 });
    expect(clock.sleeps).toEqual([1000, 1200]);
    expect(service.calls).toEqual([]);
  });
});
