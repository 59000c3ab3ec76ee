/**
 * Previews and live specs: the one home of the preview suffix. A review's preview is published under
 * `<slug>-pr-<N>` (a GitHub pull request) or `<slug>-mr-<IID>` (a GitLab merge request); cleanup deletes
 * only those of its review, pruning never touches one, and no live spec may have a slug of that form, so
 * that a preview can never write to a live spec (docs/publishing.md "Slugs").
 */
import { fitSlug, slugify } from "./derive.ts";
import { SlugInputError } from "./errors.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "./rule.ts";

/**
 * The kind of review a preview belongs to, which names its suffix: a GitHub pull request previews as
 * `<slug>-pr-<N>`, a GitLab merge request as `<slug>-mr-<IID>`.
 */
export type ReviewKind = "pull-request" | "merge-request";

const REVIEW_SUFFIXES: Readonly<Record<ReviewKind, { tag: string; noun: string }>> = {
  "pull-request": { tag: "pr", noun: "A pull request number" },
  "merge-request": { tag: "mr", noun: "A merge request IID" },
};

/** A slug of any review's preview form: ending `-pr-<number>` or `-mr-<number>`. */
export const PREVIEW_SLUG = /-(?:pr|mr)-\d+$/;

/** The suffix of review `number`'s previews: `-pr-<N>` or `-mr-<IID>`. */
export function previewSuffix(number: number, kind: ReviewKind = "pull-request"): string {
  return `-${REVIEW_SUFFIXES[kind].tag}-${number}`;
}

/**
 * A slug for a review's preview: `<slug>-pr-<N>` for a pull request (the default), `<slug>-mr-<IID>` for
 * a merge request. A base too long for the suffix to fit is shortened with {@link fitSlug}, so two long
 * slugs keep distinct previews.
 */
export function previewSlug(slug: string, number: number, kind: ReviewKind = "pull-request"): string {
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new RangeError(`${REVIEW_SUFFIXES[kind].noun} is a positive integer, not ${number}`);
  }
  const suffix = previewSuffix(number, kind);
  const base = fitSlug(slugify(slug), SLUG_MAX_LENGTH - suffix.length) || "spec";
  return `${base}${suffix}`;
}

/**
 * Whether `slug` is one of review `number`'s preview slugs (what {@link previewSlug} makes of some base
 * for the same kind): a valid slug ending `-pr-<N>` (or `-mr-<IID>`). Cleanup deletes nothing else.
 */
export function isPreviewSlugOf(slug: string, number: number, kind: ReviewKind = "pull-request"): boolean {
  const suffix = previewSuffix(number, kind);
  return (
    slug.length > suffix.length &&
    slug.length <= SLUG_MAX_LENGTH &&
    slug.endsWith(suffix) &&
    SLUG_PATTERN.test(slug)
  );
}

/** A live slug the run would publish, and where it came from, for {@link refusePreviewFormLiveSlugs}. */
export interface LiveSlug {
  slug: string;
  /** The spec file (workspace-relative). */
  file: string;
  /** What gave the slug, as a message says it: "the 'slugs' input", "derived from the file's path". */
  source: string;
}

/** A name for a live slug of the preview form that no preview takes: `api-pr-7` → `api-pr7`. */
export function livePreviewFormFix(slug: string): string {
  return slug.replace(/-(pr|mr)-(\d+)$/, "-$1$2");
}

/**
 * Refuses live slugs of the preview form: a review's preview would overwrite that spec, and its cleanup
 * delete it. Throws {@link SlugInputError} naming each slug, its file and its source, with a name to use.
 */
export function refusePreviewFormLiveSlugs(slugs: readonly LiveSlug[]): void {
  const refused = slugs.filter((live) => PREVIEW_SLUG.test(live.slug));
  if (refused.length === 0) return;
  const lines = refused.map(
    (live) =>
      `${JSON.stringify(live.slug)} of ${JSON.stringify(live.file)} (${live.source}): use ${JSON.stringify(livePreviewFormFix(live.slug))} or another name`,
  );
  throw new SlugInputError(
    `A live spec's slug may not end like a preview's (-pr-<number> or -mr-<number>): the preview of a pull or merge request of that number would overwrite it, and its cleanup delete it. ${lines.join("; ")}. Nothing was published.`,
  );
}
