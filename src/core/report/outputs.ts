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

/** The parts of a run's closing error, each already in the host's words and redacted. */
export interface RunFailures {
  /** Why the run stopped before its end. */
  stoppedReason?: string | undefined;
  /** The slug collisions. */
  collisions?: string | undefined;
  results: readonly SpecResult[];
  pruneFailure?: string | undefined;
  /** The API change review's verdict (`fail-on-breaking`). */
  reviewFailure?: string | undefined;
}

/**
 * The run's closing error, for the Action and the CLI alike: why it stopped; else its slug collisions,
 * failed specs and prune failure, a blank line between them; else the change review's verdict.
 * Undefined when the run did not fail.
 */
export function runFailureMessage(failures: RunFailures): string | undefined {
  if (failures.stoppedReason !== undefined) return failures.stoppedReason;
  const parts = [failures.collisions, finalFailureMessage(failures.results), failures.pruneFailure];
  const given = parts.filter((part) => part);
  return given.length > 0 ? given.join("\n\n") : failures.reviewFailure || undefined;
}
