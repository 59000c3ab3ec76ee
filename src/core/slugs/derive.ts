import { sha256Hex } from "../text/sha256.ts";
import { SLUG_MAX_LENGTH } from "./rule.ts";

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
 * Derives a slug from a workspace-relative path (docs/publishing.md: "Slugs"):
 * drop the extension and a trailing `.openapi`/`.swagger`, drop a generic base name, fall back to the
 * repository name, put the prefix in front, then normalize with {@link slugify}.
 */
export function deriveSlug(relativePath: string, options: DeriveSlugOptions): string {
  let name = pathName(relativePath);
  if (name === "") name = options.repositoryName;
  if (options.prefix) name = `${options.prefix}-${name}`;
  return slugify(name) || fallbackSlug(relativePath);
}

/** Whether a path's derived slug is the repository's name (a root `openapi.yaml`). */
export function namedAfterRepository(relativePath: string): boolean {
  return pathName(relativePath) === "";
}

/** What the path says of a slug: its folders and its base name less the extension and a generic name. */
function pathName(relativePath: string): string {
  const segments = relativePath.replaceAll("\\", "/").split("/").filter(Boolean);
  const fileName = segments.pop() ?? "";
  let base = fileName.replace(/\.[^.]*$/, "").replace(/\.(openapi|swagger)$/i, "");
  if (GENERIC_BASE_NAMES.has(base.toLowerCase())) base = "";
  return [...segments, base].filter((part) => part !== "").join("-");
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
  return sha256Hex(text).slice(0, 8);
}

function fallbackSlug(relativePath: string): string {
  return `spec-${shortHash(relativePath)}`;
}
