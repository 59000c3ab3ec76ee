import type { SpecResult } from "../result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { toResultRecords } from "./results-record.ts";
import { countBy, failureReason, isFailure } from "./status.ts";

export interface ActionOutputs {
  results: string;
  published: string;
  unchanged: string;
  failed: string;
}

/**
 * The action's outputs: `results` as JSON, the records of `schema/results.schema.json` in path order
 * (the CLI's `--json` prints the same), and the counts.
 */
export function renderOutputs(results: readonly SpecResult[]): ActionOutputs {
  const counts = countBy(results);
  return {
    results: JSON.stringify(toResultRecords(results)),
    published: String(counts.published),
    unchanged: String(counts.unchanged),
    failed: String(counts.failed + counts["timed-out"]),
  };
}

/**
 * The job's final error: every spec that failed, with its reason; undefined when none did. File names
 * and slugs are escaped, so that each failure starts a line of its own.
 */
export function finalFailureMessage(results: readonly SpecResult[]): string | undefined {
  const failures = results.filter(isFailure);
  if (failures.length === 0) return undefined;
  const lines = failures.map(
    (r) => `- ${escapeUntrusted(r.file)} (${escapeUntrusted(r.slug)}): ${r.status}, ${failureReason(r)}`,
  );
  const noun = results.length === 1 ? "spec" : "specs";
  return `${failures.length} of ${results.length} ${noun} did not publish:\n${lines.join("\n")}`;
}
