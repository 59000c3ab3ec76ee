/**
 * Where a node of a bundled document is written: the bundle is built anew, so a key path in it is
 * followed through the root document and, at each `$ref`, into the file and node it reaches (the
 * bundler's `referenced` nodes). A component the bundler placed under `components` from another file
 * is found by its name. What cannot be followed further is located at the deepest node reached.
 */
import path from "node:path";
import type { TextFormat } from "../documents/format.ts";
import { pointerTokens } from "./pointer.ts";

/** The bundler's record of a node reached in another file (bundling's `ReferencedNode`). */
export interface ReferencedSource {
  file: string;
  text: string;
  tokens: readonly string[];
  node: unknown;
}

export interface SourceOfPath {
  file: string;
  text: string;
  format: TextFormat;
  /** The key path inside that file. */
  keyPath: string[];
  /** Whether every key of the path was found (false: `keyPath` leads to the deepest one that was). */
  reached: boolean;
}

interface Cursor {
  file: string;
  text: string;
  node: unknown;
  tokens: string[];
}

const formatOf = (file: string): TextFormat => (/\.json$/i.test(file) ? "json" : "yaml");

/** A walk follows at most this many `$ref`s in a row before taking its next key (a cycle ends there). */
export const MAX_REF_HOPS = 16;

/**
 * A `$ref`'s file (`""` for the document it is written in) and the tokens of its fragment; `#` and `#/`
 * both name the whole document. Undefined for a fragment with an invalid %-escape: it leads nowhere.
 */
export function splitRef(ref: string): { target: string; tokens: string[] } | undefined {
  const hash = ref.indexOf("#");
  let pointer: string;
  try {
    pointer = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
  } catch {
    return undefined;
  }
  return {
    target: hash < 0 ? ref : ref.slice(0, hash),
    tokens: pointer === "/" ? [] : pointerTokens(pointer),
  };
}

/** The node's own child `key` (never what an object inherits, such as `constructor`). */
function ownChild(node: unknown, key: string): unknown {
  return typeof node === "object" && node !== null && Object.hasOwn(node, key)
    ? (node as Record<string, unknown>)[key]
    : undefined;
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, index) => token === b[index]);
}

export function bundledPathSource(
  root: { file: string; text: string; format: TextFormat; document: unknown },
  referenced: readonly ReferencedSource[],
  keyPath: readonly string[],
): SourceOfPath {
  const find = (file: string, tokens: readonly string[]) =>
    referenced.find((entry) => entry.file === file && sameTokens(entry.tokens, tokens));
  const jump = (cursor: Cursor, ref: string): Cursor | undefined => {
    const split = splitRef(ref);
    if (!split) return undefined;
    const { target, tokens } = split;
    if (target === "") {
      if (cursor.file === root.file) {
        let node = root.document;
        for (const token of tokens) node = ownChild(node, token);
        return node === undefined ? undefined : { ...cursor, node, tokens };
      }
      const entry = find(cursor.file, tokens);
      return entry && { file: entry.file, text: entry.text, node: entry.node, tokens: [...entry.tokens] };
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(cursor.file), target));
    const entry = find(file, tokens);
    return entry && { file: entry.file, text: entry.text, node: entry.node, tokens: [...entry.tokens] };
  };

  let cursor: Cursor = { file: root.file, text: root.text, node: root.document, tokens: [] };
  let from = 0;
  const [section, kind, name] = keyPath;
  const inRoot = (root.document as Record<string, Record<string, Record<string, unknown>>> | null)?.[
    section as string
  ]?.[kind as string]?.[name as string];
  if (section === "components" && name !== undefined && inRoot === undefined) {
    // A component the bundler brought in from another file, under its file's or its node's name.
    const stem = (file: string) => path.posix.basename(file).replace(/\.[^.]+$/, "");
    const placed =
      referenced.find((entry) => entry.tokens.length === 0 && stem(entry.file) === name) ??
      referenced.find((entry) => entry.tokens.at(-1) === name);
    if (placed) {
      cursor = { file: placed.file, text: placed.text, node: placed.node, tokens: [...placed.tokens] };
      from = 3;
    }
  }
  let reached = true;
  for (const key of keyPath.slice(from)) {
    for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
      const ref = (cursor.node as { $ref?: unknown } | null)?.$ref;
      if (typeof cursor.node !== "object" || typeof ref !== "string" || key === "$ref") break;
      const next = jump(cursor, ref);
      if (!next) break;
      cursor = next;
    }
    const child = ownChild(cursor.node, key);
    if (child === undefined) {
      reached = false;
      break;
    }
    cursor = { ...cursor, node: child, tokens: [...cursor.tokens, key] };
  }
  const format = cursor.file === root.file ? root.format : formatOf(cursor.file);
  return { file: cursor.file, text: cursor.text, format, keyPath: cursor.tokens, reached };
}
