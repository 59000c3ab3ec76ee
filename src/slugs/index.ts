export { type AssignSlugsOptions, assignSlugs } from "./assign.ts";
export { type DeriveSlugOptions, deriveSlug, previewSlug, slugify } from "./derive.ts";
export { DuplicateSlugError, SlugInputError } from "./errors.ts";
export { normalizeMappedPath, parseSlugMapping } from "./mapping.ts";
export { repositoryNameFrom } from "./repository.ts";
export { explainInvalidSlug, isValidSlug, SLUG_MAX_LENGTH, SLUG_PATTERN } from "./rule.ts";
