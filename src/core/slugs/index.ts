export { type AssignSlugsOptions, assignSlugs } from "./assign.ts";
export { type DeriveSlugOptions, deriveSlug, fitSlug, slugify } from "./derive.ts";
export { DuplicateSlugError, type SlugCollision, type SlugFix, SlugInputError } from "./errors.ts";
export { formatExcludeLine } from "./exclusion.ts";
export { formatSlugLine, normalizeMappedPath, parseSlugMapping } from "./mapping.ts";
export {
  isPreviewSlugOf,
  type LiveSlug,
  PREVIEW_SLUG,
  previewSlug,
  previewSuffix,
  type ReviewKind,
  refusePreviewFormLiveSlugs,
} from "./preview.ts";
export { explainInvalidSlug, isValidSlug, SLUG_MAX_LENGTH, SLUG_PATTERN } from "./rule.ts";
