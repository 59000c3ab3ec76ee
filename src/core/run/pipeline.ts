import type { Logger } from "../logger.ts";
import type { ProgressListener } from "../ports.ts";
import type { SpecResult } from "../result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { BufferedLogger } from "./buffered-logger.ts";
import { MemoryGate } from "./memory-gate.ts";

/**
 * A spec's work up to the point where its contents are no longer needed, then what is left of it.
 * `holds` tells the memory bound what the spec holds once that is known better than its file's size.
 */
export type SpecStage = (log: Logger, holds?: (bytes: number) => void) => Promise<() => Promise<SpecResult>>;

export interface StreamedSpec {
  file: string;
  slug: string;
  /** What reading it costs (its file's size), until its stage says better: bounds how many big specs are in memory at once. */
  bytes: number;
  stage: SpecStage;
}

/**
 * Bytes of spec files between their read and the end of their upload, together. A parsed document
 * takes several times its text, so this keeps a few large specs from being held at once; a spec larger
 * than this runs alone.
 */
export const IN_FLIGHT_BYTES = 8 * 1024 * 1024;

/**
 * Runs every spec's work, streaming: at most `inFlight` specs, and {@link IN_FLIGHT_BYTES} of them, are
 * between their read and the end of their upload at any time, so a spec's upload starts while later
 * specs are still read, and memory follows the largest spec, not their number. What follows an upload
 * (waiting for GitBook) runs outside that bound. Specs start in {@link startOrder}. Each spec logs into
 * its own buffer, written as one group titled with the spec and its status when it ends, so concurrent
 * specs never interleave in the log. Results come back in the order given.
 */
export async function streamSpecs(
  specs: readonly StreamedSpec[],
  options: { inFlight: number; logger: Logger; progress?: ProgressListener | undefined },
): Promise<SpecResult[]> {
  const gate = new MemoryGate(options.inFlight, IN_FLIGHT_BYTES);
  const { progress } = options;
  progress?.({ kind: "planned", total: specs.length });
  const results: SpecResult[] = [];
  await Promise.all(
    startOrder(specs).map(async (index) => {
      const spec = specs[index] as StreamedSpec;
      const log = new BufferedLogger();
      // An exception out of one spec's work (a fault of this tool) fails that spec, never the others.
      const rest = await gate
        .run(spec.bytes, async (reweigh) => {
          // Local work resolves without I/O: yielding lets the loop run what waits on it (timers, the live
          // progress, V8's posted tasks that finish garbage collection) between specs.
          await new Promise((resolve) => setImmediate(resolve));
          return spec.stage(log, reweigh);
        })
        .catch((error: unknown) => async () => unexpectedFailure(spec, error, log));
      progress?.({ kind: "staged" });
      const result = await rest().catch((error: unknown) => unexpectedFailure(spec, error, log));
      log.flushInto(options.logger, `${spec.file} → ${spec.slug}: ${result.status}`);
      progress?.({ kind: "finished", result });
      results[index] = result;
    }),
  );
  return results;
}

/**
 * The order specs start in, as indexes: those that run alone (over {@link IN_FLIGHT_BYTES}) first, the
 * largest first, then the others in path order. V8 keeps the pages a heap frees for any heap of the
 * process and does not give them back: started first, the largest spec sets the process's high-water
 * mark alone, and its pages serve the specs after it; started in its turn, it lands on top of what they
 * left (the APIs-guru check: 372-416 → 335-348 MiB in the same time; docs/design/memory.md).
 */
function startOrder(specs: readonly { bytes: number }[]): number[] {
  const indexes = specs.map((_, index) => index);
  const bytes = (index: number) => (specs[index] as { bytes: number }).bytes;
  const alone = indexes.filter((index) => bytes(index) > IN_FLIGHT_BYTES);
  return [
    ...alone.sort((a, b) => bytes(b) - bytes(a)),
    ...indexes.filter((index) => bytes(index) <= IN_FLIGHT_BYTES),
  ];
}

/** A spec whose work threw: failed, with what was thrown, said to be this tool's fault. */
function unexpectedFailure(spec: StreamedSpec, error: unknown, log: Logger): SpecResult {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const message = `An unexpected error ended this spec's work: ${what.split("\n", 1)[0]}. This is a fault of gitbook-openapi: please report it. The other specs went on.`;
  log.error(escapeUntrusted(`${spec.file}: ${message}`), { file: spec.file });
  return {
    file: spec.file,
    slug: spec.slug,
    status: "failed",
    errorCode: "INTERNAL_ERROR",
    errors: [message],
  };
}
