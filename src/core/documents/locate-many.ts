import { blockYamlStringAt, markBlockYamlKeys, type WantedKeys } from "./block-yaml.ts";
import type { TextFormat } from "./format.ts";
import { decodeKey, endOfString, lineStarts, positionOf, skipSpace, skipValue } from "./json-text.ts";
import { keyPathLocator, type Located, type Position } from "./locate.ts";

type Wanted = WantedKeys;

const START: Position = { line: 1, column: 1 };

/**
 * Where each key path is written (as {@link keyPathLocator}: the deepest key that exists, line 1 when
 * none does), for many paths of one text at once. The text is read once, descending only into the keys
 * some path asks for and skipping every other value, so that the time follows the text's size, not the
 * number of paths times it: JSON by a scan, block-style YAML line by line (./block-yaml.ts), and any
 * other YAML parsed once with positions.
 */
export function locateKeyPaths(
  text: string,
  format: TextFormat,
  keyPaths: readonly (readonly string[])[],
): Located[] {
  if (keyPaths.length === 0) return [];
  const root: Wanted = { children: new Map() };
  for (const keyPath of keyPaths) wantKeyPath(root, keyPath);
  if (!markKeys(text, format, root)) {
    const locate = keyPathLocator(text, "yaml");
    return keyPaths.map((keyPath) => locate(keyPath));
  }
  const starts = lineStarts(text);
  return keyPaths.map((keyPath) => {
    let node = root;
    let found: Located = { position: START, depth: 0 };
    for (const key of keyPath) {
      const child = node.children.get(key);
      if (child?.at === undefined) break;
      found = { position: positionOf(starts, child.at), depth: found.depth + 1 };
      node = child;
    }
    return found;
  });
}

/** Adds `keyPath` to the wanted tree `root`; its last node. */
export function wantKeyPath(root: WantedKeys, keyPath: readonly string[]): WantedKeys {
  let node = root;
  for (const key of keyPath) {
    let child = node.children.get(key);
    if (!child) {
      child = { children: new Map() };
      node.children.set(key, child);
    }
    node = child;
  }
  return node;
}

/**
 * Marks the `at` of every wanted key written in `text`, by one reading of it; false when it is YAML the
 * line reading cannot be sure of (./block-yaml.ts).
 */
export function markKeys(text: string, format: TextFormat, root: WantedKeys): boolean {
  if (format === "yaml") return markBlockYamlKeys(text, root);
  new JsonWalk(text).value(skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0), root);
  return true;
}

/**
 * The string a mapping entry whose key is written at `at` (as {@link markKeys} marks it) has for value;
 * `null` when its value is certainly not a string, undefined when the reading cannot be sure.
 */
export function stringValueAt(text: string, format: TextFormat, at: number): string | null | undefined {
  if (format === "yaml") return blockYamlStringAt(text, at);
  if (text[at] !== '"') return undefined;
  const colon = skipSpace(text, endOfString(text, at) + 1);
  if (text[colon] !== ":") return undefined;
  const value = skipSpace(text, colon + 1);
  if (text[value] !== '"') return null;
  try {
    return JSON.parse(text.slice(value, endOfString(text, value) + 1)) as string;
  } catch {
    return undefined;
  }
}

class JsonWalk {
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Walks the value at `at`, marking the wanted keys met inside it; the offset just after it. */
  value(at: number, wanted: Wanted): number {
    const { text } = this;
    const first = text[at];
    if (wanted.children.size === 0 || (first !== "{" && first !== "[")) return skipValue(text, at);
    let index = skipSpace(text, at + 1);
    for (let item = 0; index < text.length; item += 1) {
      if (text[index] === "}" || text[index] === "]") return index + 1;
      let key: string;
      let found = index;
      if (first === "{") {
        if (text[index] !== '"') return text.length;
        const end = endOfString(text, index);
        key = decodeKey(text.slice(index, end + 1));
        index = skipSpace(text, end + 1);
        if (text[index] !== ":") return text.length;
        index = skipSpace(text, index + 1);
      } else {
        key = String(item);
        found = index;
      }
      const child = wanted.children.get(key);
      if (child) child.at = found;
      index = skipSpace(text, child ? this.value(index, child) : skipValue(text, index));
      if (text[index] === ",") index = skipSpace(text, index + 1);
    }
    return text.length;
  }
}
