import type { SpecResult } from "../sync/result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { countBy, failureReason, isFailure } from "./status.ts";

export interface ActionOutputs {
  results: string;
  published: string;
  unchanged: string;
  failed: string;
}

/** The action's outputs: `results` as JSON in path order, and the counts. */
export function renderOutputs(results: readonly SpecResult[]): ActionOutputs {
  const counts = countBy(results);
  const ordered = [...results].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    results: JSON.stringify(ordered.map(toOutputRecord)),
    published: String(counts.published),
    unchanged: String(counts.unchanged),
    failed: String(counts.failed + counts["timed-out"]),
  };
}

function toOutputRecord(result: SpecResult): Record<string, unknown> {
  return {
    file: result.file,
    slug: result.slug,
    status: result.status,
    operation: result.operation ?? null,
    specVersion: result.specVersion ?? null,
    specId: result.specId ?? null,
    versionId: result.versionId ?? null,
    versionUrl: result.versionUrl ?? null,
    appUrl: result.appUrl ?? null,
    errorCode: result.errorCode ?? null,
    errors: result.errors,
    ...(result.changes
      ? {
          changes: {
            against: result.changes.against,
            breaking: result.changes.breaking,
            other: result.changes.other,
            allowed: result.changes.allowed,
          },
        }
      : {}),
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
  const noun = failures.length === 1 ? "spec" : "specs";
  return `${failures.length} of ${results.length} ${noun} did not publish:\n${lines.join("\n")}`;
}
