import pLimit from "p-limit";
import type { Logger } from "../logger.ts";
import { BufferedLogger } from "./buffered-logger.ts";
import type { SpecResult } from "./result.ts";

/** A spec's work up to the point where its contents are no longer needed, then what is left of it. */
export type SpecStage = (log: Logger) => Promise<() => Promise<SpecResult>>;

export interface StreamedSpec {
  file: string;
  slug: string;
  stage: SpecStage;
}

/**
 * Runs every spec's work in path order, streaming: at most `inFlight` specs are between their read and
 * the end of their upload at any time, so a spec's upload starts while later specs are still read, and
 * memory holds `inFlight` specs' texts whatever their number. What follows an upload (waiting for
 * GitBook) runs outside that bound. Each spec logs into its own buffer, written as one group titled
 * with the spec and its status when it ends, so concurrent specs never interleave in the log. Results
 * come back in the order given.
 */
export function streamSpecs(
  specs: readonly StreamedSpec[],
  options: { inFlight: number; logger: Logger; progress?: ProgressListener | undefined },
): Promise<SpecResult[]> {
  const gate = pLimit(options.inFlight);
  const { progress } = options;
  progress?.({ kind: "planned", total: specs.length });
  return Promise.all(
    specs.map(async (spec) => {
      const log = new BufferedLogger();
      const rest = await gate(() => spec.stage(log));
      progress?.({ kind: "staged" });
      const result = await rest();
      log.flushInto(options.logger, `${spec.file} → ${spec.slug}: ${result.status}`);
      progress?.({ kind: "finished", result });
      return result;
    }),
  );
}

/**
 * What a live display needs: how many specs there are, each spec past its upload (or its local checks),
 * and each spec's end with its result.
 */
export type ProgressEvent =
  | { kind: "planned"; total: number }
  | { kind: "staged" }
  | { kind: "finished"; result: SpecResult };

export type ProgressListener = (event: ProgressEvent) => void;
