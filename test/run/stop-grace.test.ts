/**
 * The grace a host's stop gives the specs under way (src/core/run/stop-grace.ts), on a clock the test
 * moves: work that ends within it keeps its results; work that does not is reported spec by spec —
 * ended, cancelled under way, or not started.
 */
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { Clock } from "../../src/core/ports.ts";
import type { SpecResult } from "../../src/core/result.ts";
import type { StreamedSpec } from "../../src/core/run/pipeline.ts";
import { TrackedSpecs, withinStopGrace } from "../../src/core/run/stop-grace.ts";
import { Interrupted, STOP_GRACE_MS } from "../../src/core/run/stopped.ts";

/** A clock whose sleeps end when the test says so. */
function manualClock(): Clock & { sleeps: number[]; wake(): void } {
  const waiting: (() => void)[] = [];
  const sleeps: number[] = [];
  return {
    now: () => 0,
    sleep(ms) {
      sleeps.push(ms);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    sleeps,
    wake: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

const published = (file: string): SpecResult => ({ file, slug: file, status: "published", errors: [] });

function spec(file: string, rest: () => Promise<SpecResult>): StreamedSpec {
  return { file, slug: file, bytes: 1, stage: async () => rest };
}

const never = () => new Promise<SpecResult>(() => {});

describe("a stop's grace", () => {
  it("reports each spec as it stands when the grace is over: ended, cancelled, not started", async () => {
    const tracked = new TrackedSpecs();
    const specs = [spec("a", async () => published("a")), spec("b", never), spec("c", never)].map((s) =>
      tracked.track(s),
    );
    const controller = new AbortController();
    const clock = manualClock();
    const logger = new MemoryLogger();
    // a ends, b is under way without end, c never starts.
    const [a, b] = specs as [StreamedSpec, StreamedSpec];
    const work = Promise.all([(await a.stage(logger))(), (await b.stage(logger))(), never()]);
    const results = withinStopGrace(work, tracked, controller.signal, { clock, logger });
    controller.abort(new Interrupted("SIGTERM"));
    await Promise.resolve();
    expect(clock.sleeps).toEqual([STOP_GRACE_MS]);
    clock.wake();
    expect((await results).map((r) => [r.file, r.status, r.errors[0]])).toEqual([
      ["a", "published", undefined],
      [
        "b",
        "cancelled",
        "Cancelled: interrupted by SIGTERM before its work ended; GitBook may hold what was uploaded before.",
      ],
      ["c", "skipped", "Not started: interrupted by SIGTERM"],
    ]);
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      "1 spec still under way 2 s after the stop: cancelled (b).",
    ]);
  });

  it("keeps the work's own results when it ends first, and waits for no grace without a stop", async () => {
    const tracked = new TrackedSpecs();
    const clock = manualClock();
    const logger = new MemoryLogger();
    const controller = new AbortController();
    const done = [published("a")];
    expect(await withinStopGrace(Promise.resolve(done), tracked, controller.signal, { clock, logger })).toBe(
      done,
    );
    controller.abort(new Interrupted("SIGINT"));
    expect(clock.sleeps).toEqual([]);
  });
});
