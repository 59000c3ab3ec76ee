import { describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { publishAll } from "../../harness/publish-all.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { PreparedSpec } from "../../src/core/prepare/prepared.ts";
import { DEFAULT_POLL_SCHEDULE } from "../../src/core/publish/poll-schedule.ts";
import { limitConcurrency } from "../../src/core/run/limit.ts";
import type { SpecSource } from "../../src/core/service/types.ts";

const text: SpecSource = { text: "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n" };

function spec(slug: string, extra: Partial<PreparedSpec> = {}): PreparedSpec {
  return { file: `${slug}.yaml`, slug, source: text, problems: [], specVersion: "1.0.0", ...extra };
}

function options(
  service: FakeSpecService,
  clock: InstantClock,
  overrides: { wait?: boolean; timeoutMs?: number; concurrency?: number } = {},
) {
  const logger = new MemoryLogger();
  return {
    logger,
    publish: {
      orgId: "org",
      service: limitConcurrency(service, overrides.concurrency ?? 4),
      clock,
      schedule: DEFAULT_POLL_SCHEDULE,
      wait: overrides.wait ?? true,
      deadline: clock.now() + (overrides.timeoutMs ?? 600_000),
      logger,
      random: () => 0.5,
    },
  };
}

describe("publishAll", () => {
  it("uploads, waits for processing and reads the new version", async () => {
    const service = new FakeSpecService({ pollsToFinish: 2 });
    const clock = new InstantClock();
    const { publish, logger } = options(service, clock);
    const [result] = await publishAll([spec("pets")], publish);
    expect(result).toMatchObject({
      file: "pets.yaml",
      slug: "pets",
      status: "published",
      operation: "create",
      specVersion: "1.0.0",
      specId: "id-pets",
      versionId: "v1",
      versionUrl: "http://api.test/pets/v1.yaml",
      appUrl: "http://app.test/o/openapi/pets",
      errors: [],
    });
    expect(service.calls).toEqual([
      "PUT org/pets",
      "GET org/pets",
      "GET org/pets",
      "GET org/pets/versions/v1",
    ]);
    expect(logger.messages("group")).toEqual(["pets.yaml → pets: published"]);
  });

  it("reports an update, and does not take the previous run's result for this one", async () => {
    const service = new FakeSpecService({ pollsToFinish: 3 });
    service.seed("pets", {
      lastVersion: "old",
      lastProcessedAt: "2020-01-01T00:00:00.000Z",
      processingState: "complete",
    });
    const clock = new InstantClock();
    const [result] = await publishAll([spec("pets")], options(service, clock).publish);
    expect(result?.operation).toBe("update");
    expect(result?.versionId).toBe("v1");
    expect(service.calls.filter((c) => c === "GET org/pets")).toHaveLength(3);
  });

  it("fails a spec with the processing error code and messages, and annotates its file", async () => {
    const service = new FakeSpecService({
      outcomes: { bad: { kind: "error", code: "PARSE_ERROR", messages: ["paths: must be an object"] } },
    });
    const clock = new InstantClock();
    const { publish, logger } = options(service, clock);
    const results = await publishAll([spec("bad"), spec("good")], publish);
    expect(results.map((r) => r.status)).toEqual(["failed", "published"]);
    expect(results[0]).toMatchObject({ errorCode: "PARSE_ERROR", errors: ["paths: must be an object"] });
    const annotation = logger.entries.find((e) => e.level === "error");
    expect(annotation?.location).toEqual({ file: "bad.yaml" });
    expect(annotation?.message).toContain("PARSE_ERROR");
    expect(annotation?.message).toContain("paths: must be an object");
  });

  it("times out a spec stuck in processing without holding back the others", async () => {
    const service = new FakeSpecService({ outcomes: { stuck: { kind: "stuck" } } });
    const clock = new InstantClock();
    const results = await publishAll(
      [spec("ok"), spec("stuck")],
      options(service, clock, { timeoutMs: 30_000 }).publish,
    );
    expect(results.map((r) => r.status)).toEqual(["published", "timed-out"]);
    expect(results[1]?.errorCode).toBe("PROCESSING_TIMEOUT");
    expect(clock.time - 1_000_000).toBeLessThanOrEqual(30_000 + 20_000);
  });

  it("fails specs with local problems before any upload", async () => {
    const service = new FakeSpecService();
    const clock = new InstantClock();
    const { publish, logger } = options(service, clock);
    const broken = spec("broken", {
      source: undefined,
      problems: [
        {
          code: "SYNTAX_ERROR",
          message: "broken.yaml: bad indentation",
          location: { file: "broken.yaml", line: 3, column: 5 },
        },
      ],
    });
    const [result] = await publishAll([broken], publish);
    expect(result).toMatchObject({
      status: "failed",
      errorCode: "SYNTAX_ERROR",
      // The place once: the result's text gives it, the log line carries it as its location.
      errors: ["broken.yaml:3:5: bad indentation"],
    });
    expect(service.calls).toEqual([]);
    expect(logger.entries.find((e) => e.level === "error")).toEqual({
      level: "error",
      message: "bad indentation",
      location: { file: "broken.yaml", line: 3, column: 5 },
    });
  });

  it("keeps going when an upload is refused, and names the HTTP status", async () => {
    const service = new FakeSpecService({
      outcomes: { denied: { kind: "http-error", status: 403, on: "put" } },
    });
    const results = await publishAll(
      [spec("denied"), spec("fine")],
      options(service, new InstantClock()).publish,
    );
    expect(results.map((r) => [r.status, r.errorCode])).toEqual([
      ["failed", "HTTP_403"],
      ["published", undefined],
    ]);
  });

  it("submits without polling when wait is false", async () => {
    const service = new FakeSpecService();
    const [result] = await publishAll(
      [spec("quick")],
      options(service, new InstantClock(), { wait: false }).publish,
    );
    expect(result?.status).toBe("submitted");
    expect(service.calls).toEqual(["PUT org/quick"]);
  });

  it("never has more requests in flight than the concurrency", async () => {
    const service = new FakeSpecService({ callDelayMs: 2 });
    const specs = Array.from({ length: 12 }, (_, i) => spec(`s${i}`));
    await publishAll(specs, options(service, new InstantClock(), { concurrency: 3 }).publish);
    expect(service.maxInFlight).toBe(3);
  });
});
