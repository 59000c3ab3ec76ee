import { deriveSlug } from "./derive.ts";
import { DuplicateSlugError, SlugInputError } from "./errors.ts";

export interface AssignSlugsOptions {
  /** From {@link parseSlugMapping}; explicit slugs win and get no prefix. */
  mapping?: ReadonlyMap<string, string>;
  prefix?: string;
  repositoryName: string;
}

/**
 * Gives every discovered spec (workspace-relative path) its slug. Throws {@link SlugInputError} for a
 * mapped path that is not a discovered spec and {@link DuplicateSlugError} when two specs share a slug.
 */
export function assignSlugs(paths: readonly string[], options: AssignSlugsOptions): Map<string, string> {
  const known = new Set(paths);
  for (const mappedPath of options.mapping?.keys() ?? []) {
    if (!known.has(mappedPath)) {
      throw new SlugInputError(
        `The \`slugs\` input maps "${mappedPath}", which is not one of the specifications found ` +
          `(${describeFound(paths)}). Check the path for a typo; paths are relative to the workspace.`,
      );
    }
  }

  const slugs = new Map<string, string>();
  const ownerOfSlug = new Map<string, string>();
  for (const filePath of [...paths].sort()) {
    const slug =
      options.mapping?.get(filePath) ??
      deriveSlug(filePath, {
        repositoryName: options.repositoryName,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      });
    const owner = ownerOfSlug.get(slug);
    if (owner !== undefined) throw new DuplicateSlugError(slug, owner, filePath);
    ownerOfSlug.set(slug, filePath);
    slugs.set(filePath, slug);
  }
  return slugs;
}

function describeFound(paths: readonly string[]): string {
  if (paths.length === 0) return "none were found";
  const shown = [...paths].sort().slice(0, 5).join(", ");
  return paths.length > 5 ? `${shown}, and ${paths.length - 5} more` : shown;
}
