/**
 * Where key paths of a spec written in one file are, found in its text without building its document:
 * the walk of ./bundled-locations.ts (before each key, the node's `$ref`s inside the document followed,
 * at most {@link MAX_REF_HOPS} in a row), each node it needs looked up by the scanners of
 * documents/locate-many.ts. A walk that meets a node not yet looked up waits for the next reading of
 * the text, which looks up what every waiting walk needs next; a few readings place them all.
 */

import type { WantedKeys } from "../documents/block-yaml.ts";
import type { TextFormat } from "../documents/format.ts";
import { lineStarts, positionOf } from "../documents/json-text.ts";
import type { Position } from "../documents/locate.ts";
import { markKeys, stringValueAt, wantKeyPath } from "../documents/locate-many.ts";
import { MAX_REF_HOPS, splitRef } from "./bundled-locations.ts";

export interface TextPlace {
  /** Where the path's deepest node the walk reached is written (line 1, column 1 for the whole document). */
  position: Position;
  /** Whether every key of the path was found. */
  reached: boolean;
}

/** Readings of the text before giving up: each one moves every waiting walk at least one node on. */
const MAX_READINGS = 64;

/**
 * Where each key path (of the bundled document, which for one file is the file's own) is written;
 * undefined when the scanners cannot be sure of the text (YAML in flow style on a path, a `$ref` that is
 * not a one-line string…) or the walks need more readings: the caller then builds the document.
 */
export function textPlaces(
  text: string,
  format: TextFormat,
  keyPaths: readonly (readonly string[])[],
): TextPlace[] | undefined {
  const nodes = new TextNodes(text, format);
  let walks: (Walked | undefined)[] = keyPaths.map(() => undefined);
  try {
    for (let reading = 0; reading < MAX_READINGS; reading++) {
      walks = keyPaths.map((keyPath, index) => walks[index] ?? walk(keyPath, nodes));
      if (nodes.waiting === 0) {
        const starts = lineStarts(text);
        return (walks as Walked[]).map(({ tokens, reached }) => {
          const at = tokens.length === 0 ? undefined : nodes.at(tokens);
          return { position: positionOf(starts, at ?? undefined), reached };
        });
      }
      if (!nodes.read()) return undefined;
    }
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
  return undefined;
}

interface Walked {
  tokens: readonly string[];
  reached: boolean;
}

/** Unsure of the text: the document must be built. */
class GiveUp extends Error {}

/**
 * The walk of `keyPath` on what the readings so far found; undefined when it needs a node not yet looked
 * up (it asks for it, and for the nodes after it, so that the next reading takes it further).
 */
function walk(keyPath: readonly string[], nodes: TextNodes): Walked | undefined {
  let cursor: readonly string[] = [];
  for (let index = 0; index < keyPath.length; index++) {
    const key = keyPath[index] as string;
    const rest = keyPath.slice(index);
    for (let hops = 0; hops < MAX_REF_HOPS && key !== "$ref"; hops++) {
      const refAt = nodes.at([...cursor, "$ref"]);
      if (refAt === undefined) return nodes.ask(cursor, rest);
      if (refAt === null) break;
      const ref = nodes.stringAt(refAt);
      if (typeof ref !== "string") break;
      const split = splitRef(ref);
      if (split?.target !== "") break;
      const { tokens } = split;
      const found = tokens.length === 0 ? 0 : nodes.at(tokens);
      if (found === undefined) return nodes.ask(tokens, rest);
      if (found === null) break;
      cursor = tokens;
    }
    const child = [...cursor, key];
    const found = nodes.at(child);
    if (found === undefined) return nodes.ask(cursor, rest);
    if (found === null) return { tokens: cursor, reached: false };
    cursor = child;
  }
  return { tokens: cursor, reached: true };
}

/** A node looked up, and those looked up below it: where each is written, or null where it is not. */
interface Found {
  at: number | null;
  children: Map<string, Found>;
}

/**
 * The nodes of the text looked up so far, as a tree of keys: a lookup costs the length of its path, even
 * for a `$ref` (the file's author's) naming a node 60,000 keys deep.
 */
class TextNodes {
  private readonly text: string;
  private readonly format: TextFormat;
  private readonly found: Found = { at: null, children: new Map() };
  private readonly strings = new Map<number, string | null>();
  private wanted: WantedKeys = { children: new Map() };
  waiting = 0;

  constructor(text: string, format: TextFormat) {
    this.text = text;
    this.format = format;
  }

  /** Where the node at `tokens` is written; null when it is not; undefined when not looked up yet. */
  at(tokens: readonly string[]): number | null | undefined {
    let node: Found | undefined = this.found;
    for (const token of tokens) node = node?.children.get(token);
    return node?.at;
  }

  /** The string value of the entry whose key is written at `at`; null when it has none. */
  stringAt(at: number): string | null {
    let value = this.strings.get(at);
    if (value === undefined) {
      const read = stringValueAt(this.text, this.format, at);
      if (read === undefined) throw new GiveUp();
      value = read;
      this.strings.set(at, value);
    }
    return value;
  }

  /** Asks the next reading for `from` followed by each start of `keys`, and for each one's `$ref`. */
  ask(from: readonly string[], keys: readonly string[]): undefined {
    let node = wantKeyPath(this.wanted, from);
    wantKeyPath(node, ["$ref"]);
    for (const key of keys) {
      node = wantKeyPath(node, [key]);
      wantKeyPath(node, ["$ref"]);
    }
    this.waiting++;
    return undefined;
  }

  /** Reads the text for every node asked for; false when the scanners cannot be sure of it. */
  read(): boolean {
    const wanted = this.wanted;
    this.wanted = { children: new Map() };
    this.waiting = 0;
    if (!markKeys(this.text, this.format, wanted)) return false;
    const pending: [WantedKeys, Found][] = [[wanted, this.found]];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [asked, found] = next;
      for (const [key, child] of asked.children) {
        let node = found.children.get(key);
        if (!node) {
          node = { at: child.at ?? null, children: new Map() };
          found.children.set(key, node);
        }
        pending.push([child, node]);
      }
    }
    return true;
  }
}
