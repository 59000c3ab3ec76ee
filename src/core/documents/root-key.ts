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
