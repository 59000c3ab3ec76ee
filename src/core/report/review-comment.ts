import type { ReviewRun } from "../ports.ts";
import type { SpecResult } from "../result.ts";
import { renderReviewComment } from "./comment.ts";
import type { ReviewHost } from "./review-host.ts";

export type { ReviewRun, ReviewThread as ReviewComments } from "../ports.ts";

export interface ReviewCommentBodyInput {
  /** The `comment-key`; identifies the comment of this instance. */
  key: string;
  host: ReviewHost;
  /** The pull request's number or the merge request's IID. */
  number: number;
  run: ReviewRun;
  /** The previews earlier runs recorded in the comment. */
  earlier: readonly string[];
}

/** The comment's body after `run`, and the previews it records. Pure. */
export function reviewCommentBody(input: ReviewCommentBodyInput): { body: string; previews: string[] } {
  const { run } = input;
  const previews = nextRecordedPreviews(run, input.earlier);
  const body = renderReviewComment({
    key: input.key,
    host: input.host,
    results: run.mode === "cleanup" ? [] : [...run.results],
    mode: run.mode === "cleanup" ? "preview" : run.mode,
    pullRequestNumber: input.number,
    state: { previews },
    ...(run.mode === "cleanup" ? { cleanup: cleanupOf(run.results) } : {}),
    ...(run.removedSpecs ? { removedSpecs: run.removedSpecs } : {}),
    ...(run.interrupted ? { interrupted: run.interrupted } : {}),
    ...(run.links ? { links: run.links } : {}),
  });
  return { body, previews };
}

/**
 * After a preview run: every preview that exists now, or may (a spec cancelled under way may have been
 * uploaded: deleting it later is harmless when it was not); after a cleanup: those not deleted.
 */
export function nextRecordedPreviews(run: ReviewRun, earlier: readonly string[]): string[] {
  if (run.mode === "cleanup") return run.results.filter((r) => r.status !== "deleted").map((r) => r.slug);
  if (run.mode !== "preview") return [...earlier];
  const created = run.results
    .filter((r) => r.specId !== undefined || r.status === "cancelled")
    .map((r) => r.slug);
  return [...new Set([...earlier, ...created])].sort();
}

function cleanupOf(results: readonly SpecResult[]) {
  return {
    deleted: results.filter((r) => r.status === "deleted").map((r) => r.slug),
    failed: results
      .filter((r) => r.status !== "deleted")
      .map((r) => ({ slug: r.slug, error: r.errors.join("; ") || r.status })),
  };
}
