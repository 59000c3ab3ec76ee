/**
 * Whether an unparsable file still declares `openapi` or `swagger` at its top level, which makes it a
 * broken specification rather than an unrelated file. YAML: the key at the start of a line (quoted or
 * not). JSON: a key of the outermost object, found by a scan that tracks strings and nesting.
 */
export function declaresSpecKey(text: string): boolean {
  if (/^(["']?)(openapi|swagger)\1[ \t]*:/m.test(text)) return true;
  return hasTopLevelJsonKey(text, new Set(["openapi", "swagger"]));
}

function hasTopLevelJsonKey(text: string, keys: ReadonlySet<string>): boolean {
  const start = text.search(/\S/);
  if (start === -1 || text[start] !== "{") return false;
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      const end = endOfString(text, index);
      if (
        depth === 1 &&
        keys.has(text.slice(index + 1, end)) &&
        /^\s*:/.test(text.slice(end + 1, end + 64))
      ) {
        return true;
      }
      index = end;
    } else if (char === "{" || char === "[") {
      depth += 1;
    } else if (char === "}" || char === "]") {
      depth -= 1;
      if (depth <= 0) return false;
    }
  }
  return false;
}

/** Index of the closing quote of the string opening at `open` (or the text's end if it never closes). */
function endOfString(text: string, open: number): number {
  for (let index = open + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") index += 1;
    else if (char === '"' || char === "\n") return index;
  }
  return text.length;
}
