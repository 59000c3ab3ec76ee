/** The change review's verdict on a preview run: what was compared, and whether it fails the run. */

import type { SyncPlan } from "../plan/plan.ts";
import type { SpecResult } from "../result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { specChangeLine } from "./change-line.ts";
import type { BaseSide } from "./change-review.ts";

export interface ChangeReviewReport {
  /** What the specs were compared with, and why not the base commit when it could not be used. */
  against: "base commit" | "published version";
  fallbackReason?: string;
  /** Spec files the base had and the head no longer has: each a breaking change. */
  removedSpecs: string[];
  /** Set when `fail-on-breaking` is on and a breaking change not allowed was found: fails the run. */
  failure?: string;
}

/** Lines of the change review's failure message; the rest are counted (the comment lists them). */
const MAX_FAILURE_LINES = 20;

/**
 * What the review compared with, the spec files removed since the base, and, with `fail-on-breaking`
 * (or `fail-on-unreviewed`), the failure listing every breaking change not allowed.
 */
export function changeReviewReport(
  side: BaseSide,
  results: readonly SpecResult[],
  headFiles: ReadonlySet<string>,
  options: NonNullable<SyncPlan["changeReview"]>,
): ChangeReviewReport {
  const removedSpecs = side.removedSince(headFiles);
  const report: ChangeReviewReport = {
    against: side.against,
    ...(side.fallbackReason ? { fallbackReason: side.fallbackReason } : {}),
    removedSpecs,
  };
  if (!options.failOnBreaking) return report;
  // A file published as several audiences is named with the slug of the one that changed.
  const perFile = new Map<string, number>();
  for (const result of results) perFile.set(result.file, (perFile.get(result.file) ?? 0) + 1);
  const name = (result: SpecResult) =>
    escapeUntrusted((perFile.get(result.file) ?? 0) > 1 ? `${result.file} → ${result.slug}` : result.file);
  const breaking = [
    ...results.flatMap((result) =>
      (result.changes?.breaking ?? []).map(
        (change) => `- ${name(result)}: ${escapeUntrusted(specChangeLine(change))}`,
      ),
    ),
    ...removedSpecs.map((file) => `- ${escapeUntrusted(file)}: the spec was removed`),
  ];
  const unreviewed = options.failOnUnreviewed
    ? results.flatMap((result) =>
        result.changes?.notReviewed === undefined
          ? []
          : [`- ${name(result)}: not reviewed: ${escapeUntrusted(result.changes.notReviewed)}`],
      )
    : [];
  if (breaking.length + unreviewed.length === 0) return report;
  const reasons = [
    ...(breaking.length > 0
      ? [
          `${breaking.length} breaking API change${breaking.length === 1 ? "" : "s"} (fail-on-breaking is on; accept one on purpose with breaking-allowed)`,
        ]
      : []),
    ...(unreviewed.length > 0
      ? [
          `${unreviewed.length} spec${unreviewed.length === 1 ? "" : "s"} not reviewed (fail-on-unreviewed is on)`,
        ]
      : []),
  ];
  const lines = [...unreviewed, ...breaking];
  const shown = lines.slice(0, MAX_FAILURE_LINES);
  if (lines.length > shown.length)
    shown.push(
      `- … and ${lines.length - shown.length} more: the review comment, the summary and \`gitbook-openapi diff\` list them all`,
    );
  return { ...report, failure: `${reasons.join("; ")}:\n${shown.join("\n")}` };
}
