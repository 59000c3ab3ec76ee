/**
 * The streaming pipeline (src/core/run/pipeline.ts): the specs that run alone start first, the largest
 * first, so that the largest document sets the process's high-water mark before the others add to it;
 * the others start in path order, and the results come back in the order given.
 */
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { IN_FLIGHT_BYTES, type StreamedSpec, streamSpecs } from "../../src/core/run/pipeline.ts";

describe("streamSpecs", () => {
  it("starts the specs that run alone first, the largest first, and answers in the order given", async () => {
    const started: string[] = [];
    const spec = (file: string, bytes: number): StreamedSpec => ({
      file,
      slug: file,
      bytes,
      stage: async (log) => {
        started.push(file);
        log.info(`prepared ${file}`);
        return async (): Promise<SpecResult> => ({ file, slug: file, status: "published", errors: [] });
      },
    });
    const logger = new MemoryLogger();
    const results = await streamSpecs(
      [
        spec("a.yaml", 1_000),
        spec("large.yaml", IN_FLIGHT_BYTES + 1),
        spec("b.yaml", IN_FLIGHT_BYTES),
        spec("largest.yaml", 3 * IN_FLIGHT_BYTES),
        spec("c.yaml", 2_000),
      ],
      { inFlight: 4, logger },
    );
    expect(started).toEqual(["largest.yaml", "large.yaml", "a.yaml", "b.yaml", "c.yaml"]);
    expect(results.map((result) => result.file)).toEqual([
      "a.yaml",
      "large.yaml",
      "b.yaml",
      "largest.yaml",
      "c.yaml",
    ]);
    expect(logger.messages("info")).toEqual(
      expect.arrayContaining(["prepared largest.yaml", "prepared c.yaml"]),
    );
  });
});
