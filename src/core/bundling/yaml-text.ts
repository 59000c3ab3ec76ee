/**
 * Writes plain data as block-style YAML that every reader, YAML 1.1 or 1.2, reads back as written: plain
 * only when safe, literal blocks for multi-line text, JSON's quoting (plus `\uXXXX`) otherwise. Why not
 * `js-yaml`'s `dump`: docs/design/bundling-choice.md, "Output".
 */
import { unicodeEscape } from "../text/unprintable.ts";

export function toYaml(value: unknown): string {
  const out: string[] = [];
  if (isCollection(value) && !isEmpty(value)) writeBlock(value, "", out);
  else out.push(inline(value), "\n");
  return out.join("");
}

type Collection = Record<string, unknown> | unknown[];

function isCollection(value: unknown): value is Collection {
  return typeof value === "object" && value !== null;
}

function isEmpty(value: Collection): boolean {
  if (Array.isArray(value)) return value.length === 0;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Writes the entries of a non-empty collection, each line starting with `indent`. */
function writeBlock(value: Collection, indent: string, out: string[]): void {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    for (const item of value) {
      out.push(indent, "-");
      writeValue(item === undefined ? null : item, inner, out, true);
    }
    return;
  }
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined || typeof item === "function") continue;
    out.push(indent, scalarKey(key), ":");
    writeValue(item, inner, out, false);
  }
}

/** Writes what follows `key:` or `-`: the value on the same line, or an indented block below. */
function writeValue(value: unknown, indent: string, out: string[], inSequence: boolean): void {
  if (isCollection(value) && !isEmpty(value)) {
    if (inSequence && !Array.isArray(value)) {
      // `- key: value` with the next keys aligned under the first.
      const start = out.length;
      writeBlock(value, indent, out);
      out[start] = " ";
      return;
    }
    out.push("\n");
    writeBlock(value, indent, out);
    return;
  }
  if (typeof value === "string" && isLiteralBlock(value)) {
    out.push(" ", literalBlock(value, indent));
    return;
  }
  out.push(" ", inline(value), "\n");
}

function inline(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return scalarString(value);
  if (typeof value === "number") {
    if (Number.isFinite(value)) return String(value);
    return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  }
  if (typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return "[]";
  if (typeof value === "object") return "{}";
  throw new TypeError(`cannot write a ${typeof value} as YAML`);
}

const plain = /^[A-Za-z_/$][\w/$.+\-{}() ]*$/;
const plainKey = /^[A-Za-z_/$][\w/$.+\-{}()]*$/;
/** Words that YAML 1.1 or 1.2 readers take for booleans or null. */
const reserved = /^(?:y|n|yes|no|on|off|true|false|null)$/i;

function scalarKey(key: string): string {
  return plainKey.test(key) && !reserved.test(key) ? key : quoted(key);
}

function scalarString(value: string): string {
  return plain.test(value) && !value.endsWith(" ") && !reserved.test(value) ? value : quoted(value);
}

/** C0 controls but tab and line feed, DEL, C1 controls, line and paragraph separators, byte order mark. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const unprintable = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** What `JSON.stringify` leaves unescaped of the above (it escapes C0 controls and lone surrogates). */
const unprintableInJson = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function quoted(value: string): string {
  return JSON.stringify(value).replace(unprintableInJson, unicodeEscape);
}

function isLiteralBlock(value: string): boolean {
  return (
    value.includes("\n") &&
    /^[^\s]/.test(value) &&
    !value.includes("\r") &&
    !unprintable.test(value) &&
    !loneSurrogate.test(value)
  );
}

/** `|`, `|-` or `|+` and the lines of `value` below, indented; ends with a line break. */
function literalBlock(value: string, indent: string): string {
  const body = value.replace(/\n+$/, "");
  const breaks = value.length - body.length;
  const chomping = breaks === 0 ? "-" : breaks === 1 ? "" : "+";
  const lines = body.split("\n").map((line) => (line === "" ? "" : indent + line));
  return `|${chomping}\n${lines.join("\n")}\n${"\n".repeat(Math.max(0, breaks - 1))}`;
}
