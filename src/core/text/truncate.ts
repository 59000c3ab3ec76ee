/**
 * The one way a text is cut to a length: by code points, never between the two halves of a surrogate
 * pair, with `…` standing for what was left out (counted in the length).
 */

/** The longest message shown on one line of a report (a change, a failure, a warning), in code points. */
export const MAX_MESSAGE_LENGTH = 300;

/** `text` cut at its end to at most `max` code points. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

/** `text` cut in its middle to at most `max` code points, keeping a third from its start and the end. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.floor(max / 3);
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (max - head - 1)).join("")}`;
}
