import { SlugInputError } from "./errors.ts";
import { explainInvalidSlug } from "./rule.ts";

/**
 * Parses the `slugs` input: one `path: slug` per line; blank lines and `#` comments are ignored.
 * Paths are exact workspace-relative file paths (no globs); `./` and backslashes are normalized.
 * The slug is used exactly as written (no prefix), so it must already satisfy the slug rule.
 */
export function parseSlugMapping(input: string): Map<string, string> {
  const mapping = new Map<string, string>();
  const lines = input.split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) return;
    const where = `The \`slugs\` input, line ${index + 1} (${JSON.stringify(line)})`;
    const colon = line.lastIndexOf(":");
    if (colon === -1) {
      throw new SlugInputError(`${where}: expected "path: slug", for example "api/openapi.yaml: payments".`);
    }
    const filePath = normalizeMappedPath(line.slice(0, colon));
    const slug = line.slice(colon + 1).trim();
    if (filePath === "") throw new SlugInputError(`${where}: the path before ':' is empty.`);
    const reason = explainInvalidSlug(slug);
    if (reason !== undefined) {
      throw new SlugInputError(
        `${where}: the slug ${JSON.stringify(slug)} is not valid because ${reason}. ` +
          "Use lowercase letters, digits and single '-' between them, at most 100 characters.",
      );
    }
    const previous = mapping.get(filePath);
    if (previous !== undefined && previous !== slug) {
      throw new SlugInputError(
        `${where}: ${filePath} is already mapped to "${previous}"; keep one line for it.`,
      );
    }
    mapping.set(filePath, slug);
  });
  return mapping;
}

/** `./a\b.yaml` → `a/b.yaml`; surrounding quotes are removed. */
export function normalizeMappedPath(raw: string): string {
  return raw
    .trim()
    .replace(/^(["'])(.*)\1$/, "$2")
    .replaceAll("\\", "/")
    .replace(/\/{2,}/g, "/")
    .replace(/^(\.\/)+/, "");
}

/**
 * The `slugs` input line that maps `filePath` to `slug`, written so that {@link parseSlugMapping} reads
 * back exactly this path: as it is when that works, else in double quotes. Undefined when no line can
 * name the path (a line break or a backslash in it, which the input's syntax cannot carry).
 */
export function formatSlugLine(filePath: string, slug: string): string | undefined {
  for (const written of [filePath, `"${filePath}"`]) {
    const line = `${written}: ${slug}`;
    if (readsBackAs(line, filePath, slug)) return line;
  }
  return undefined;
}

/**
 * Characters a line of an input cannot carry: line breaks end it, and YAML (the workflow file the
 * line is pasted into) refuses control characters other than tab, byte order marks and non-characters.
 */
export const UNWRITABLE_IN_INPUT = /(?!\t)\p{Cc}|[\uFEFF\uFFFE\uFFFF]|\p{Cs}/u;

function readsBackAs(line: string, filePath: string, slug: string): boolean {
  if (UNWRITABLE_IN_INPUT.test(line)) return false;
  try {
    const entries = [...parseSlugMapping(line)];
    return entries.length === 1 && entries[0]?.[0] === filePath && entries[0][1] === slug;
  } catch {
    return false;
  }
}
