import { UNWRITABLE_IN_INPUT } from "./mapping.ts";

/**
 * The `files` input line that excludes exactly `filePath` (`!` and the path as a glob that matches only
 * it), in the syntax src/core/discovery/patterns.ts reads (minimatch with `@actions/glob`'s options, where
 * only `*`, `?`, `[…]` are special): `*`, `?` and `[` are written as one-character classes (`[*]`), and
 * so is whitespace at either end, which the input would trim.
 * Undefined when no line can name the path (a backslash, a line break or a control character in it).
 */
export function formatExcludeLine(filePath: string): string | undefined {
  if (filePath === "" || filePath.includes("\\") || UNWRITABLE_IN_INPUT.test(filePath)) return undefined;
  const chars = [...filePath];
  const first = chars.findIndex((char) => !/\s/u.test(char));
  const last = chars.findLastIndex((char) => !/\s/u.test(char));
  const escaped = chars.map((char, index) => {
    if (char === "*" || char === "?" || char === "[") return `[${char}]`;
    if (index < first || index > last || first === -1) return `[${char}]`;
    return char;
  });
  return `!${escaped.join("")}`;
}
