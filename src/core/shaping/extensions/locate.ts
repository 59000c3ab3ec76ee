import type { TextFormat } from "../../documents/format.ts";
import {
  decodeKey,
  endOfString,
  lineStarts,
  positionOf,
  skipSpace,
  skipValue,
} from "../../documents/json-text.ts";
import { keyPathLocator, type Position } from "../../documents/locate.ts";

/** A path into a document: keys of mappings and indexes of lists (numbers or decimal strings), e.g. ["tags", 2, "x-parent"]. */
export type DocumentPath = readonly (string | number)[];

/**
 * Finds where many paths are written in one text: a YAML text through `keyPathLocator` (documents/locate.ts),
 * which parses it once. A JSON text is not parsed: each path is followed by a scan that skips the values
 * it passes over and decodes the keys it compares. The position is that of the deepest part of the path
 * that exists (a key, or a list item's first character); line 1, column 1 when none does. Only called
 * when there is something to report.
 */
export function pathLocator(text: string, format: TextFormat): (path: DocumentPath) => Position {
  if (format === "json") {
    const lines = lineStarts(text);
    return (path) => positionOf(lines, locateInJson(text, path));
  }
  const locate = keyPathLocator(text, format);
  return (path) => locate(path.map(String)).position;
}

function locateInJson(text: string, path: DocumentPath): number | undefined {
  let at = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let found: number | undefined;
  for (const part of path) {
    const next =
      text[at] === "{"
        ? keyIn(text, at, String(part))
        : text[at] === "["
          ? itemIn(text, at, part)
          : undefined;
    if (next === undefined) return found;
    found = next.found;
    at = next.value;
  }
  return found;
}

/** The key `wanted` of the object opening at `open`: where the key is written and where its value starts. */
function keyIn(text: string, open: number, wanted: string): { found: number; value: number } | undefined {
  let at = skipSpace(text, open + 1);
  while (text[at] === '"') {
    const keyEnd = endOfString(text, at);
    const key = decodeKey(text.slice(at, keyEnd + 1));
    const value = skipSpace(text, skipSpace(text, keyEnd + 1) + 1);
    if (key === wanted) return { found: at, value };
    at = skipSpace(text, skipValue(text, value));
    if (text[at] !== ",") return undefined;
    at = skipSpace(text, at + 1);
  }
  return undefined;
}

/** The item `index` of the array opening at `open`. */
function itemIn(
  text: string,
  open: number,
  index: string | number,
): { found: number; value: number } | undefined {
  if (!/^\d+$/.test(String(index))) return undefined;
  const wanted = Number(index);
  let at = skipSpace(text, open + 1);
  for (let item = 0; text[at] !== "]" && at < text.length; item += 1) {
    if (item === wanted) return { found: at, value: at };
    at = skipSpace(text, skipValue(text, at));
    if (text[at] !== ",") return undefined;
    at = skipSpace(text, at + 1);
  }
  return undefined;
}
