import { describe, expect, it } from "vitest";
import { DEFAULT_POLL_SCHEDULE, pollDelayMs } from "../../src/core/publish/poll-schedule.ts";
import { isResultOfUpload, processingFailure } from "../../src/core/publish/processing.ts";
import { specFixture } from "../support/spec-fixture.ts";

const spec = specFixture;

describe("isResultOfUpload", () => {
  const previous = { lastProcessedAt: "2026-01-01T00:00:00.000Z", lastVersion: "old" };

  it("takes the first final state after a busy upload answer", () => {
    const uploaded = spec({ ...previous, processingState: "pending" });
    expect(isResultOfUpload(uploaded, spec({ ...previous, processingState: "progress" }))).toBe(false);
    expect(isResultOfUpload(uploaded, spec({ lastProcessedAt: "2026-01-02T00:00:01.000Z" }))).toBe(true);
  });

  it("keeps polling an unknown state", () => {
    const uploaded = spec({ processingState: "pending" });
    expect(isResultOfUpload(uploaded, spec({ processingState: "queued" }))).toBe(false);
  });

  it("does not take the previous result when the upload answer is already final", () => {
    const uploaded = spec({
      ...previous,
      processingState: "complete",
      updatedAt: "2026-01-02T00:00:00.000Z",
    });
    expect(isResultOfUpload(uploaded, spec({ ...previous }))).toBe(false);
    expect(
      isResultOfUpload(uploaded, spec({ lastProcessedAt: "2026-01-02T00:00:05.000Z", lastVersion: "new" })),
    ).toBe(true);
  });
});

describe("processingFailure", () => {
  it("carries the code, each message, and a count of truncated ones", () => {
    const failure = processingFailure(
      spec({
        lastProcessErrorCode: "PARSE_ERROR",
        lastProcessedErrors: [{ message: "bad", code: "E1" }, { message: "worse" }],
        lastProcessedErrorCount: 5,
      }),
    );
    expect(failure).toEqual({
      code: "PARSE_ERROR",
      messages: ["E1: bad", "worse", "… and 3 more errors reported by the service"],
    });
    expect(processingFailure(spec({}))).toBeUndefined();
  });
});

describe("pollDelayMs", () => {
  it("grows from the first delay to the cap, within the jitter", () => {
    const middle = (attempt: number) => pollDelayMs(DEFAULT_POLL_SCHEDULE, attempt, () => 0.5);
    expect(middle(0)).toBe(DEFAULT_POLL_SCHEDULE.firstDelayMs);
    expect(middle(1)).toBe(DEFAULT_POLL_SCHEDULE.firstDelayMs * DEFAULT_POLL_SCHEDULE.growth);
    expect(middle(50)).toBe(DEFAULT_POLL_SCHEDULE.maxDelayMs);
    const low = pollDelayMs(DEFAULT_POLL_SCHEDULE, 50, () => 0);
    const high = pollDelayMs(DEFAULT_POLL_SCHEDULE, 50, () => 1);
    expect(low).toBe(DEFAULT_POLL_SCHEDULE.maxDelayMs * (1 - DEFAULT_POLL_SCHEDULE.jitter));
    expect(high).toBe(DEFAULT_POLL_SCHEDULE.maxDelayMs * (1 + DEFAULT_POLL_SCHEDULE.jitter));
  });
});
