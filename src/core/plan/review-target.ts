import { isPreviewSlugOf, previewSlug, previewSuffix, type ReviewKind } from "../slugs/preview.ts";
import type { ReviewTarget } from "./plan.ts";

/** The plan's view of a review: its words and its preview slugs. */
export function reviewTarget(review: { number: number; kind: ReviewKind }): ReviewTarget {
  const { number, kind } = review;
  const [noun, sign, comment] =
    kind === "merge-request" ? ["merge request", "!", "note"] : ["pull request", "#", "comment"];
  return {
    label: `${noun} ${sign}${number}`,
    commentLabel: `${noun} ${comment}`,
    previewSuffix: previewSuffix(number, kind),
    previewSlug: (slug) => previewSlug(slug, number, kind),
    isOwnPreview: (slug) => isPreviewSlugOf(slug, number, kind),
  };
}
