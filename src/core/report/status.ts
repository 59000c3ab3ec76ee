import type { SpecResult, SpecStatus } from "../result.ts";

export const STATUS_ICONS: Record<SpecStatus, string> = {
  published: "✅",
  unchanged: "💤",
  submitted: "📤",
  planned: "📝",
  skipped: "⏭️",
  cancelled: "🛑",
  deleted: "🧹",
  failed: "❌",
  "timed-out": "⏱️",
};

/** A status as the summary and the comment show it, e.g. "✅ published". */
export function statusLabel(status: SpecStatus): string {
  return `${STATUS_ICONS[status]} ${status}`;
}

/** Statuses that fail the job. */
export function isFailure(result: SpecResult): boolean {
  return result.status === "failed" || result.status === "timed-out";
}

export function countBy(results: readonly SpecResult[]): Record<SpecStatus, number> {
  const counts: Record<SpecStatus, number> = {
    published: 0,
    unchanged: 0,
    submitted: 0,
    planned: 0,
    skipped: 0,
    cancelled: 0,
    deleted: 0,
    failed: 0,
    "timed-out": 0,
  };
  for (const result of results) counts[result.status]++;
  return counts;
}

/**
 * What a run its host stopped did, in words: `3 published, 1 failed, 1 cancelled, 15 not started`.
 */
export function partialCounts(results: readonly SpecResult[]): string {
  const counts = countBy(results);
  const parts: [number, string][] = [
    [counts.published, "published"],
    [counts.unchanged, "unchanged"],
    [counts.submitted, "submitted"],
    [counts.planned, "checked"],
    [counts.deleted, "deleted"],
    [counts.failed + counts["timed-out"], "failed"],
    [counts.cancelled, "cancelled"],
    [counts.skipped, "not started"],
  ];
  const said = parts.filter(([count]) => count > 0).map(([count, word]) => `${count} ${word}`);
  return said.length > 0 ? said.join(", ") : "nothing started";
}

/** The one-line reason a spec failed, for the final error and tables. */
export function failureReason(result: SpecResult): string {
  const code = result.errorCode ? `${result.errorCode}` : result.status;
  const detail = result.errors.length > 0 ? `: ${result.errors.join("; ")}` : "";
  return `${code}${detail}`;
}

/** How many validation findings a spec published with as warnings: `, 4 warnings`. */
export function warningsNote(result: SpecResult): string {
  const count = result.warnings?.count ?? 0;
  return count === 0 ? "" : `, ${count} ${count === 1 ? "warning" : "warnings"}`;
}
