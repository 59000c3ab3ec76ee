/**
 * Every prepared spec published at once, each logging into its own group, results in the order given:
 * the run's per-spec steps (`publishOne`) without its streaming, for tests and benchmarks that prepare
 * their specs up front.
 */
import type { Logger } from "../src/core/logger.ts";
import type { PreparedSpec } from "../src/core/prepare/prepared.ts";
import { type PublishOptions, publishOne } from "../src/core/publish/publish.ts";
import type { SpecResult } from "../src/core/result.ts";
import { streamSpecs } from "../src/core/run/pipeline.ts";

export function publishAll(specs: readonly PreparedSpec[], options: PublishOptions): Promise<SpecResult[]> {
  const streamed = specs.map((spec) => ({
    file: spec.file,
    slug: spec.slug,
    bytes: 0,
    stage: async (log: Logger) => {
      const result = await publishOne(spec, { ...options, logger: log });
      return async () => result;
    },
  }));
  return streamSpecs(streamed, { inFlight: Math.max(1, specs.length), logger: options.logger });
}
