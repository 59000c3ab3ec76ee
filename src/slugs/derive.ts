import { createHash } from "node:crypto";
import { SLUG_MAX_LENGTH } from "./rule.ts";

export interface DeriveSlugOptions {
  /** Used when nothing is left of the path, e.g. for a root `openapi.yaml`. */
  repositoryName: string;
  /** Joined in front of the derived slug with `-`. */
  prefix?: string;
}

/** Base names that say nothing about the API; dropped so `payments/openapi.yaml` becomes `payments`. */
const GENERIC_BASE_NAMES = new Set(["openapi", "swagger", "spec", "api", "index", "schema"]);

/**
 * Derives a slug from a workspace-relative path (README: "How slugs are chosen"):
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
 * Lowercases, strips accents, turns every run of other characters into one `-`, trims `-` and cuts to
 * {@link SLUG_MAX_LENGTH}. Returns "" when nothing is left.
 */
export function slugify(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  return cutSlug(words.replace(/^-+|-+$/g, ""), SLUG_MAX_LENGTH);
}

/** A slug for a pull request's preview: `<slug>-pr-<N>`, the base cut so the whole fits. */
export function previewSlug(slug: string, pullRequestNumber: number): string {
  if (!Number.isSafeInteger(pullRequestNumber) || pullRequestNumber < 1) {
    throw new RangeError(`A pull request number is a positive integer, not ${pullRequestNumber}`);
  }
  const suffix = `-pr-${pullRequestNumber}`;
  const base = cutSlug(slugify(slug), SLUG_MAX_LENGTH - suffix.length) || "spec";
  return `${base}${suffix}`;
}

function cutSlug(slug: string, maxLength: number): string {
  return slug.slice(0, maxLength).replace(/-+$/, "");
}

function fallbackSlug(relativePath: string): string {
  return `spec-${createHash("sha256").update(relativePath).digest("hex").slice(0, 8)}`;
}
