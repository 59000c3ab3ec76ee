/** A `slugs` input line that cannot be used as written, or that names a file that is not a spec. */
export class SlugInputError extends Error {
  override readonly name = "SlugInputError";
}

/** What to do with one file of a collision so that it no longer takes the slug. */
export type SlugFix =
  /** Give it its own slug: `line` is the `slugs` input line (it replaces the file's line if `mapped`). */
  | { kind: "slug"; file: string; slug: string; line: string; mapped: boolean }
  /** It holds the same document as `sameAs`, which is published: `line` is the `files` line (`!…`). */
  | { kind: "exclude"; file: string; sameAs: string; line: string; mapped: boolean }
  /** Its name cannot be written in the input that would fix it. */
  | { kind: "rename"; file: string; reason: string };

/** One slug that several specifications would be published under. */
export interface SlugCollision {
  slug: string;
  /** Every file that would get the slug, in path order. */
  files: readonly string[];
  /** The file that keeps the slug once the fixes are applied. */
  keeps: string;
  /** One per other file, in path order. */
  fixes: readonly SlugFix[];
}

/**
 * Specifications would share slugs. Lists every collision of the run, each with its fix, and the lines
 * to add to the `files` and `slugs` inputs that fix them all.
 */
export class DuplicateSlugError extends Error {
  override readonly name = "DuplicateSlugError";
  readonly collisions: readonly SlugCollision[];
  /** The slug every file would get, colliding or not (path → slug). */
  readonly assigned: ReadonlyMap<string, string>;

  constructor(
    collisions: readonly SlugCollision[],
    context: { filesInputSet: boolean; assigned: ReadonlyMap<string, string> },
  ) {
    super(describeCollisions(collisions, context.filesInputSet));
    this.collisions = collisions;
    this.assigned = context.assigned;
  }
}

const quote = (text: string) => JSON.stringify(text);

function describeCollisions(collisions: readonly SlugCollision[], filesInputSet: boolean): string {
  const count = collisions.length;
  const lines = [
    `${count} slug collision${count === 1 ? "" : "s"}: each slug below would be given to more than one ` +
      "specification, and a slug names one specification (file names are quoted as JSON strings).",
    ...collisions.map((collision, index) => `${index + 1}. ${describeCollision(collision)}`),
  ];
  const fixes = collisions.flatMap((collision) => collision.fixes);
  const exclusions = fixes.flatMap((fix) => (fix.kind === "exclude" ? [fix] : []));
  const newSlugs = fixes.flatMap((fix) => (fix.kind === "slug" ? [fix] : []));
  if (exclusions.length + newSlugs.length === 0) return lines.join("\n");

  lines.push(
    fixes.some((fix) => fix.kind === "rename")
      ? "Add these lines to the step's inputs (and rename the files named above):"
      : `To fix ${count === 1 ? "it" : `all ${count}`}, add these lines to the step's inputs:`,
  );
  if (exclusions.length > 0) {
    lines.push("  files: |");
    if (!filesInputSet) lines.push("    **");
    lines.push(...exclusions.map((fix) => `    ${fix.line}`));
  }
  if (newSlugs.length > 0) {
    lines.push("  slugs: |", ...newSlugs.map((fix) => `    ${fix.line}`));
  }
  if (exclusions.length > 0) {
    lines.push(
      filesInputSet
        ? "Put the `files` lines after the input's own lines: a later `!` line wins."
        : "`files` is not set yet: its first line `**` keeps every file in the search " +
            "(the default leaves out what git ignores; `files` does not, so narrow `**` if that matters).",
    );
  }
  if (fixes.some((fix) => fix.kind !== "rename" && fix.mapped)) {
    lines.push("Where a file already has a `slugs` line, replace or remove that line as said above.");
  }
  return lines.join("\n");
}

export function describeCollision({ slug, keeps, fixes }: SlugCollision): string {
  return `${quote(slug)}: ${quote(keeps)} keeps it; ${fixes.map(describeFix).join("; ")}.`;
}

function describeFix(fix: SlugFix): string {
  switch (fix.kind) {
    case "exclude":
      return (
        `exclude ${quote(fix.file)} (same document as ${quote(fix.sameAs)}` +
        (fix.mapped ? "; remove its `slugs` line)" : ")")
      );
    case "slug":
      return (
        `give ${quote(fix.file)} the slug ${quote(fix.slug)}` +
        (fix.mapped ? " (replacing its `slugs` line)" : "")
      );
    case "rename":
      return `rename ${quote(fix.file)} (${fix.reason})`;
  }
}
