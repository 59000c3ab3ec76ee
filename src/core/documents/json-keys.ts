/**
 * Finding a key in JSON text that may not parse (a near miss, a located error): tolerant, on decoded
 * text. Its strict sibling ./json-scan.ts checks that bytes are JSON and where the top-level values lie;
 * the two answer different questions and share no rule but "a string ends at its unescaped quote".
 */
export interface JsonKeyHit {
  key: string;
  /** Offset of the key's opening quote. */
  keyOffset: number;
  /** Offset of the first character of the value, after the `:`. */
  valueOffset: number;
}

/**
 * Finds a key of the JSON object that starts at the first `{` at or after `from`, without parsing the
 * whole text: a scan that tracks strings and nesting. Works on text that does not fully parse.
 */
export function findObjectKey(text: string, keys: ReadonlySet<string>, from = 0): JsonKeyHit | undefined {
  const start = text.slice(from).search(/\S/);
  if (start === -1 || text[from + start] !== "{") return undefined;
  let depth = 0;
  for (let index = from + start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      const end = endOfString(text, index);
      if (depth === 1) {
        const key = text.slice(index + 1, end);
        const colon = /^\s*:\s*/.exec(text.slice(end + 1, end + 256));
        if (colon && keys.has(key)) return { key, keyOffset: index, valueOffset: end + 1 + colon[0].length };
      }
      index = end;
    } else if (char === "{" || char === "[") {
      depth += 1;
    } else if (char === "}" || char === "]") {
      depth -= 1;
      if (depth <= 0) return undefined;
    }
  }
  return undefined;
}

/** Index of the closing quote of the string opening at `open` (or the line's end if it never closes). */
function endOfString(text: string, open: number): number {
  for (let index = open + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") index += 1;
    else if (char === '"' || char === "\n") return index;
  }
  return text.length;
}
