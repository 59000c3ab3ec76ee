/** The service's slug rule (interface document, section 8). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 100;

/** Explains why `slug` breaks the slug rule, or returns undefined when it satisfies it. */
export function explainInvalidSlug(slug: string): string | undefined {
  if (slug.length === 0) return "it is empty";
  if (slug.length > SLUG_MAX_LENGTH) {
    return `it is ${slug.length} characters long; the limit is ${SLUG_MAX_LENGTH}`;
  }
  if (SLUG_PATTERN.test(slug)) return undefined;
  if (/[A-Z]/.test(slug)) return "it contains uppercase letters; slugs are lowercase";
  if (slug.startsWith("-") || slug.endsWith("-")) return "it starts or ends with '-'";
  if (slug.includes("--")) return "it contains '--'; hyphens separate words one at a time";
  const bad = [...slug].find((ch) => !/[a-z0-9-]/.test(ch));
  return `it contains ${JSON.stringify(bad)}; only a-z, 0-9 and single '-' between them are allowed`;
}

export function isValidSlug(slug: string): boolean {
  return explainInvalidSlug(slug) === undefined;
}
