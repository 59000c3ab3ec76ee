/** Small scanners of JSON text, by offset: for finding where keys are without parsing the text. */

/** A place in a text: line and column, from 1. */
export interface Position {
  line: number;
  column: number;
}

/** The offset just after the JSON value starting at `at` (a string, a number or word, or a nested value). */
export function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return endOfString(text, at) + 1;
  if (first !== "{" && first !== "[") {
    let end = at;
    while (end < text.length && !/[\s,}\]]/.test(text[end] as string)) end += 1;
    return end;
  }
  let depth = 0;
  for (let index = at; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 0x22) index = endOfString(text, index);
    else if (char === 0x7b || char === 0x5b) depth += 1;
    else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return text.length;
}

/** The offset of the quote that closes the string opening at `open`. */
export function endOfString(text: string, open: number): number {
  for (let index = open + 1; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 0x5c) index += 1;
    else if (char === 0x22) return index;
  }
  return text.length;
}

/** The first offset at or after `at` that is not JSON white space. */
export function skipSpace(text: string, at: number): number {
  let index = at;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char !== 0x20 && char !== 0x0a && char !== 0x0d && char !== 0x09) break;
    index += 1;
  }
  return index;
}

/** The offset where each line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}

/** The line and column (from 1) of `offset`, given the text's {@link lineStarts}; 1:1 when undefined. */
export function positionOf(starts: readonly number[], offset: number | undefined): Position {
  if (offset === undefined) return { line: 1, column: 1 };
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (starts[low] as number) + 1 };
}

/** A key as written in JSON (quotes included), decoded. */
export function decodeKey(literal: string): string {
  if (!literal.includes("\\")) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}
