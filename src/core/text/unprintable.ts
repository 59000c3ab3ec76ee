/**
 * Characters that must not reach a reader as they are: C0 and C1 controls and DEL (escape sequences
 * move a terminal's cursor), line and paragraph separators, bidirectional and zero-width controls (they
 * reorder or hide text).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `text` with each unprintable character shown as `\uXXXX`; `\n` kept when `keepLineBreaks`. */
export function escapeUnprintable(text: string, keepLineBreaks = false): string {
  return text.replace(UNPRINTABLE, (char) => (keepLineBreaks && char === "\n" ? char : unicodeEscape(char)));
}

/** One UTF-16 code unit as the `\uXXXX` escape JSON, YAML and JavaScript read back. */
export function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
