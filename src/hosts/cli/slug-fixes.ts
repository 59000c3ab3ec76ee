import { type DuplicateSlugError, describeCollision } from "../../core/slugs/errors.ts";

/**
 * Slug collisions as a command-line user fixes them: every collision, then the flags that fix them
 * all (`--files '!…'` for a file that holds the same document as another, `--slug PATH=SLUG` for the
 * others), quoted for a POSIX shell.
 */
export function describeCollisionsForCli(error: DuplicateSlugError, filesSet: boolean): string {
  const lines = [
    `${error.collisions.length} slug collision(s): each slug below would be given to more than one specification.`,
    ...error.collisions.map((collision, index) => `${index + 1}. ${describeCollision(collision)}`),
  ];
  const flags: string[] = [];
  for (const fix of error.collisions.flatMap((collision) => collision.fixes)) {
    if (fix.kind === "exclude") flags.push(`--files ${shellQuote(fix.line)}`);
    if (fix.kind === "slug") flags.push(`--slug ${shellQuote(`${fix.file}=${fix.slug}`)}`);
  }
  if (flags.length > 0) {
    const keepAll = filesSet || !flags.some((flag) => flag.startsWith("--files")) ? [] : ["--files '**'"];
    lines.push(
      "To fix them, add these flags (after your own --files, if any):",
      `  ${[...keepAll, ...flags].join(" \\\n  ")}`,
    );
  }
  return lines.join("\n");
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
