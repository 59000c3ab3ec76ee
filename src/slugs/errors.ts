/** A `slugs` input line that cannot be used as written. */
export class SlugInputError extends Error {
  override readonly name = "SlugInputError";
}

/** Two specifications would be published under the same slug. */
export class DuplicateSlugError extends Error {
  override readonly name = "DuplicateSlugError";
  readonly slug: string;
  readonly files: readonly [string, string];

  constructor(slug: string, first: string, second: string) {
    super(
      `${first} and ${second} both get the slug "${slug}". ` +
        `Give one of them its own slug in the \`slugs\` input, for example:\n  ${second}: ${slug}-2`,
    );
    this.slug = slug;
    this.files = [first, second];
  }
}
