import { findObjectKey } from "../documents/json-keys.ts";
import { lineAndColumn, locateKeyPath } from "../documents/locate.ts";
import type { SpecFormat } from "./types.ts";

const SPEC_KEYS: ReadonlySet<string> = new Set(["openapi", "swagger"]);

/**
 * Whether an unparsable file still declares `openapi` or `swagger` at its top level, which makes it a
 * broken specification rather than an unrelated file. YAML: the key at the start of a line (quoted or
 * not). JSON: a key of the outermost object, found by a scan that tracks strings and nesting.
 */
export function declaresSpecKey(text: string): boolean {
  if (/^(["']?)(openapi|swagger)\1[ \t]*:/m.test(text)) return true;
  return findObjectKey(text, SPEC_KEYS) !== undefined;
}

/** A top-level version written as a number (`swagger: 2.0`), as the file writes it. */
export interface NumericVersion {
  /** The number's source text: `2.0`, where the parsed value is 2. */
  source: string;
  /** The key and the number as the user wrote them, spacing aside: `swagger: 2.0`, `"swagger": 2.0`. */
  written: string;
  line: number;
  column: number;
}

/** A plain number literal, the only source text a number-valued version can have that we quote back. */
const NUMBER_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The source text of the top-level `key` whose parsed value is the number `value`, or undefined when it
 * cannot be found or is not a plain number literal of that value. Only called for files whose version
 * parsed as a number, which are rare: JSON is scanned, YAML is matched line by line (block style) and
 * only parsed again, without the duplicate-key check, when the key is written another way.
 */
export function numericVersionOf(
  text: string,
  format: SpecFormat,
  key: "openapi" | "swagger",
  value: number,
): NumericVersion | undefined {
  const onLine = format === "yaml" ? findOnLine(text, key) : undefined;
  const located = onLine ? undefined : locateKeyPath(text, format, [key]);
  const source = onLine?.source ?? (located?.depth === 1 ? located.rawValue : undefined);
  if (source === undefined || !NUMBER_LITERAL.test(source) || Number(source) !== value) return undefined;
  const written = format === "json" ? `"${key}": ${source}` : `${key}: ${source}`;
  const position = onLine
    ? lineAndColumn(text, onLine.keyOffset)
    : (located?.position ?? { line: 1, column: 1 });
  return { source, written, ...position };
}

interface Found {
  source: string;
  keyOffset: number;
}

/** `key: 3.1` at the start of a line, key quoted or not, a comment allowed after the value. */
function findOnLine(text: string, key: string): Found | undefined {
  const pattern = new RegExp(
    `^(\uFEFF?)(["']?)${key}\\2[ \\t]*:[ \\t]*([^\\s#,{}\\[\\]]+)[ \\t]*(?:#.*)?\\r?$`,
    "m",
  );
  const match = pattern.exec(text);
  if (!match) return undefined;
  return { source: match[3] as string, keyOffset: match.index + (match[1] as string).length };
}
