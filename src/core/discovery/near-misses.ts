/**
 * Files meant as specs that discovery cannot read as they are: refused by name, never skipped in
 * silence, so that a spec whose file went wrong (re-encoded by an editor, given comments) fails the run
 * instead of vanishing from it.
 */

import { lineAndColumn } from "../documents/locate.ts";
import { classifyDocument } from "./classify.ts";
import { declaresSpecKey } from "./declares.ts";

export interface NearMiss {
  line?: number;
  column?: number;
  message: string;
}

const ENCODINGS: readonly { name: string; mark: readonly number[] }[] = [
  { name: "UTF-32LE", mark: [0xff, 0xfe, 0x00, 0x00] },
  { name: "UTF-32BE", mark: [0x00, 0x00, 0xfe, 0xff] },
  { name: "UTF-16LE", mark: [0xff, 0xfe] },
  { name: "UTF-16BE", mark: [0xfe, 0xff] },
];

/**
 * A file that starts with a UTF-16 or UTF-32 byte order mark and, decoded, declares a spec: GitBook and
 * this tool read UTF-8 only. Undefined for any other file.
 */
export function wideEncodingMiss(bytes: Uint8Array): NearMiss | undefined {
  const encoding = ENCODINGS.find(({ mark }) => mark.every((byte, index) => bytes[index] === byte));
  if (!encoding) return undefined;
  const text = decodeWide(bytes.subarray(encoding.mark.length), encoding.name);
  if (!declaresSpecKey(text)) return undefined;
  return {
    line: 1,
    column: 1,
    message: `it is encoded as ${encoding.name} (it starts with that byte order mark), and GitBook reads specs in UTF-8 only: save it as UTF-8 (for example \`iconv -f ${encoding.name} -t UTF-8\`)`,
  };
}

function decodeWide(bytes: Uint8Array, encoding: string): string {
  if (encoding.startsWith("UTF-16")) return new TextDecoder(encoding.toLowerCase()).decode(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength - (bytes.byteLength % 4));
  const littleEndian = encoding === "UTF-32LE";
  let text = "";
  for (let offset = 0; offset < view.byteLength; offset += 4) {
    const codePoint = view.getUint32(offset, littleEndian);
    text += codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : "\uFFFD";
  }
  return text;
}

/**
 * A JSON file that is a spec once its comments are taken out (JSON has none): where the first comment is.
 * Undefined for any other text.
 */
export function jsonCommentMiss(text: string): NearMiss | undefined {
  const stripped = withoutComments(text);
  if (stripped === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stripped.text.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
  if (classifyDocument(value).kind !== "spec") return undefined;
  return {
    ...lineAndColumn(text, stripped.firstComment),
    message:
      "it is JSON with comments, which JSON does not allow and GitBook cannot read: remove the comments, or write the spec in YAML, where `#` comments are allowed",
  };
}

/** The text with every `//` and `/* *\/` comment outside strings blanked (line breaks kept); undefined without one. */
function withoutComments(text: string): { text: string; firstComment: number } | undefined {
  let out = "";
  let firstComment = -1;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    const next = text[index + 1];
    if (char === "/" && (next === "/" || next === "*")) {
      if (firstComment === -1) firstComment = index;
      const end = next === "/" ? text.indexOf("\n", index) : text.indexOf("*/", index + 2);
      const stop = end === -1 ? text.length : next === "/" ? end : end + 2;
      out += text.slice(index, stop).replace(/[^\n]/g, " ");
      index = stop;
      continue;
    }
    out += char;
    index++;
  }
  return firstComment === -1 ? undefined : { text: out, firstComment };
}
