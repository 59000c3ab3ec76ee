import { isDeepStrictEqual } from "node:util";
import { parseSource } from "./source-text.ts";
import { yamlPackage } from "./yaml-package.ts";

/**
 * Adds one key to the top-level mapping of a JSON or YAML text by splicing the text, so that every other
 * byte stays as written (numbers, comments, key order, line endings). The key goes first. Only layouts
 * whose result is certain are handled; anything else answers why, and the caller keeps the text as it is.
 *
 * `value` must be one line of JSON whose characters are all ASCII: it is then valid as written in JSON
 * and as a YAML 1.2 flow node.
 */
export type RootKeyInsertion = { ok: true; text: string } | { ok: false; reason: string };

export function insertRootKey(
  text: string,
  format: "json" | "yaml",
  key: string,
  value: string,
): RootKeyInsertion {
  if (!/^[\x20-\x7e]*$/.test(value) || !/^[A-Za-z0-9_-]+$/.test(key)) {
    throw new Error("insertRootKey: the key and value must be plain ASCII on one line");
  }
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  return format === "json"
    ? intoJsonObject(text, start, key, value)
    : intoYamlMapping(text, start, key, value);
}

/** After the `{` that opens the top-level object, before its first member, in that member's indentation. */
function intoJsonObject(text: string, from: number, key: string, value: string): RootKeyInsertion {
  const open = skipJsonSpace(text, from);
  if (text[open] !== "{") return { ok: false, reason: "its top level is not an object" };
  const first = skipJsonSpace(text, open + 1);
  if (first >= text.length || text[first] === "}")
    return { ok: false, reason: "its top-level object is empty" };
  const space = text.slice(open + 1, first);
  const member = `${JSON.stringify(key)}: ${value},`;
  return { ok: true, text: `${text.slice(0, open + 1)}${space}${member}${space}${text.slice(first)}` };
}

function skipJsonSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && " \t\r\n".includes(text[index] as string)) index++;
  return index;
}

/** A block mapping's key as its first line writes it: plain, single- or double-quoted, then `:`. */
const BLOCK_KEY =
  /^( *)(?:"(?:[^"\\\r\n]|\\.)*"|'(?:[^'\r\n]|'')*'|[^\s#'"{}[\],&*!|>%@`?:-][^#\r\n]*?)[ \t]*:(?:[ \t]|$)/;

/**
 * Before the first line of the top-level block mapping, at its indentation; or first in a top-level flow
 * mapping (`{ … }`). Blank lines, comments, directives and one `---` may come before it. Anything else at
 * the top (a sequence, a scalar, a tag or anchor on the root, several documents) is not handled.
 */
function intoYamlMapping(text: string, from: number, key: string, value: string): RootKeyInsertion {
  let lineStart = from;
  let afterMarker = false;
  while (lineStart < text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, "");
    const content = line.trimStart();
    const next = newline === -1 ? text.length : newline + 1;
    if (content === "" || content.startsWith("#") || (!afterMarker && line.startsWith("%"))) {
      lineStart = next;
      continue;
    }
    if (/^---(?:[ \t]|$)/.test(line)) {
      const rest = line.slice(3).trim();
      if (afterMarker || (rest !== "" && !rest.startsWith("#"))) {
        return {
          ok: false,
          reason: "its first document marker (`---`) is followed by content or another marker",
        };
      }
      afterMarker = true;
      lineStart = next;
      continue;
    }
    if (content.startsWith("{")) {
      const open = lineStart + (line.length - content.length);
      const first = skipJsonSpace(text, open + 1);
      if (first >= text.length || text[first] === "}") {
        return { ok: false, reason: "its top-level mapping is empty" };
      }
      return {
        ok: true,
        text: `${text.slice(0, open + 1)} ${JSON.stringify(key)}: ${value},${text.slice(open + 1)}`,
      };
    }
    const match = BLOCK_KEY.exec(line);
    if (!match) return { ok: false, reason: "its top level does not start with a plain mapping key" };
    const lineEnding = text.slice(lineEnd - 1, lineEnd + 1) === "\r\n" ? "\r\n" : "\n";
    const entry = `${match[1]}${key}: ${value}${lineEnding}`;
    return { ok: true, text: `${text.slice(0, lineStart)}${entry}${text.slice(lineStart)}` };
  }
  return { ok: false, reason: "it holds no mapping" };
}

/**
 * Takes one key out of the top-level mapping of a JSON or YAML text by cutting the text, so that every
 * other byte stays as written: its line in a block mapping, its member (and one comma) in a flow mapping
 * or JSON object. The text is unchanged when the key is not at its top. The result is read back and must
 * hold exactly what the text held without the key; anything else answers why.
 */
export function removeRootKey(text: string, format: "json" | "yaml", key: string): RootKeyInsertion {
  const { isMap, isScalar, parseDocument } = yamlPackage();
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) return { ok: false, reason: "it does not read as one document" };
  const root = document.contents;
  if (!isMap(root)) return { ok: false, reason: "its top level is not a mapping" };
  const pairs = root.items.filter((pair) => isScalar(pair.key) && pair.key.value === key);
  if (pairs.length === 0) return { ok: true, text };
  if (pairs.length > 1) return { ok: false, reason: `it names \`${key}\` more than once` };
  const pair = pairs[0] as (typeof pairs)[number];
  const keyRange = (pair.key as { range?: [number, number, number] }).range;
  const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
  if (!keyRange) return { ok: false, reason: "its key could not be placed" };
  const cut = root.flow
    ? flowMember(text, keyRange[0], valueRange ? valueRange[1] : keyRange[2])
    : blockEntry(text, keyRange[0], valueRange ? Math.max(valueRange[1], valueRange[2]) : keyRange[2]);
  if (!cut) return { ok: false, reason: "its key does not start a line of its own" };
  const result = `${text.slice(0, cut.start)}${text.slice(cut.end)}`;
  try {
    const before = parseSource(text, format === "json") as Record<string, unknown>;
    const { [key]: _removed, ...expected } = before;
    if (isDeepStrictEqual(parseSource(result, format === "json"), expected))
      return { ok: true, text: result };
  } catch {
    // told below
  }
  return { ok: false, reason: "the text without it did not read back as the same document" };
}

function blockEntry(
  text: string,
  keyStart: number,
  valueEnd: number,
): { start: number; end: number } | undefined {
  const start = text.lastIndexOf("\n", keyStart - 1) + 1;
  if (!/^[ \t]*$/.test(text.slice(start, keyStart))) return undefined;
  if (valueEnd > 0 && text[valueEnd - 1] === "\n") return { start, end: valueEnd };
  const newline = text.indexOf("\n", valueEnd);
  return { start, end: newline === -1 ? text.length : newline + 1 };
}

function flowMember(text: string, keyStart: number, valueEnd: number): { start: number; end: number } {
  const after = skipJsonSpace(text, valueEnd);
  if (text[after] === ",") return { start: keyStart, end: skipJsonSpace(text, after + 1) };
  let before = keyStart - 1;
  while (before >= 0 && " \t\r\n".includes(text[before] as string)) before--;
  return text[before] === "," ? { start: before, end: valueEnd } : { start: keyStart, end: after };
}
