import { createHash } from "node:crypto";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "./rule.ts";

export interface DeriveSlugOptions {
  /** Used when nothing is left of the path, e.g. for a root `openapi.yaml`. */
  repositoryName: string;
  /** Joined in front of the derived slug with `-`. */
  prefix?: string;
}

/** Base names that say nothing about the API; dropped so `payments/openapi.yaml` becomes `payments`. */
const GENERIC_BASE_NAMES = new Set(["openapi", "swagger", "spec", "api", "index", "schema"]);

/** Length of the hash tail that keeps long slugs apart: `-` and 8 hex characters. */
const HASH_TAIL_LENGTH = 9;

/**
 * Derives a slug from a workspace-relative path (README: "Slugs"):
 * drop the extension and a trailing `.openapi`/`.swagger`, drop a generic base name, fall back to the
 * repository name, put the prefix in front, then normalize with {@link slugify}.
 */
export function deriveSlug(relativePath: string, options: DeriveSlugOptions): string {
  const segments = relativePath.replaceAll("\\", "/").split("/").filter(Boolean);
  const fileName = segments.pop() ?? "";
  let base = fileName.replace(/\.[^.]*$/, "").replace(/\.(openapi|swagger)$/i, "");
  if (GENERIC_BASE_NAMES.has(base.toLowerCase())) base = "";
  const parts = [...segments, base].filter((part) => part !== "");
  let name = parts.join("-");
  if (name === "") name = options.repositoryName;
  if (options.prefix) name = `${options.prefix}-${name}`;
  return slugify(name) || fallbackSlug(relativePath);
}

/**
 * Lowercases, strips accents, turns every run of other characters into one `-` and trims `-`; a result
 * longer than {@link SLUG_MAX_LENGTH} is shortened with {@link fitSlug}, so two long names stay apart.
 * Returns "" when nothing is left.
 */
export function slugify(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  return fitSlug(words.replace(/^-+|-+$/g, ""), SLUG_MAX_LENGTH);
}

/**
 * The kind of review a preview belongs to, which names its suffix: a GitHub pull request previews as
 * `<slug>-pr-<N>`, a GitLab merge request as `<slug>-mr-<IID>`.
 */
export type ReviewKind = "pull-request" | "merge-request";

const REVIEW_SUFFIXES: Readonly<Record<ReviewKind, { tag: string; noun: string }>> = {
  "pull-request": { tag: "pr", noun: "A pull request number" },
  "merge-request": { tag: "mr", noun: "A merge request IID" },
};

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

/**
 * Shortens a normalized slug to at most `maxLength` characters. One that fits is returned as it is;
 * a longer one keeps its start (no trailing `-`) and ends with `-` and 8 hex characters of the SHA-256
 * of the whole slug, so slugs that differ only after the cut stay distinct.
 */
export function fitSlug(slug: string, maxLength: number): string {
  if (slug.length <= maxLength) return slug;
  const head = cutSlug(slug, maxLength - HASH_TAIL_LENGTH);
  const tail = shortHash(slug);
  return head === "" ? tail : `${head}-${tail}`;
}

/** The first `maxLength` characters of a slug, without a trailing `-`. */
export function cutSlug(slug: string, maxLength: number): string {
  return slug.slice(0, Math.max(0, maxLength)).replace(/-+$/, "");
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

function fallbackSlug(relativePath: string): string {
  return `spec-${shortHash(relativePath)}`;
}
