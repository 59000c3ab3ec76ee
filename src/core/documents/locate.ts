import type { LineCounter } from "yaml";
import type { TextFormat } from "./format.ts";
import { findObjectKey } from "./json-keys.ts";
import { endOfString, type Position } from "./json-text.ts";
import { yamlPackage } from "./yaml-package.ts";
import { yamlSteps } from "./yaml-path.ts";

export type { Position };

export interface Located {
  /** Where the deepest key of `keyPath` that exists is written; line 1, column 1 when none does. */
  position: Position;
  /** How many keys of the path were found. */
  depth: number;
  /** The source text of the value when the whole path was found and it is a scalar. */
  rawValue?: string;
}

const START: Position = { line: 1, column: 1 };

/**
 * Finds where a key path such as ["info", "version"] is written. Only called when something is wrong
 * (or for rare raw values), so the cost of a second YAML parse is paid on the failure path only.
 */
export function locateKeyPath(text: string, format: TextFormat, keyPath: readonly string[]): Located {
  return format === "json" ? locateInJson(text, keyPath) : locateInYaml(text, keyPath);
}

/**
 * Locates many key paths of one text, parsing a YAML text once (for a list of problems). A decimal key
 * also steps into a YAML sequence; in JSON the search stops at a list, at the key that holds it.
 */
export function keyPathLocator(text: string, format: TextFormat): (keyPath: readonly string[]) => Located {
  if (format === "json") return (keyPath) => locateInJsonItems(text, keyPath);
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, keepSourceTokens: false, uniqueKeys: false });
  return (keyPath) => walkYaml(document.contents, lineCounter, keyPath);
}

/** As {@link locateInJson}, stepping into lists by a decimal key (a list's item is located at its start). */
function locateInJsonItems(text: string, keyPath: readonly string[]): Located {
  let found: Located = { position: START, depth: 0 };
  let from = 0;
  for (const key of keyPath) {
    const item = /^\d+$/.test(key) ? listItemOffset(text, from, Number(key)) : undefined;
    if (item !== undefined) {
      found = { position: lineAndColumn(text, item), depth: found.depth + 1 };
      from = item;
      continue;
    }
    const hit = findObjectKey(text, new Set([key]), from);
    if (hit === undefined) return found;
    found = { position: lineAndColumn(text, hit.keyOffset), depth: found.depth + 1 };
    from = hit.valueOffset;
  }
  return found;
}

/** Offset of item `index` of the JSON list that starts at the first non-blank at or after `from`. */
function listItemOffset(text: string, from: number, index: number): number | undefined {
  const start = text.slice(from, from + 256).search(/\S/);
  if (start === -1 || text[from + start] !== "[") return undefined;
  let depth = 0;
  let count = 0;
  let expecting = true;
  for (let at = from + start; at < text.length; at += 1) {
    const char = text[at] as string;
    if (depth === 1 && expecting && !/\s/.test(char) && char !== "]") {
      if (count === index) return at;
      expecting = false;
    }
    if (char === '"') {
      at = endOfString(text, at);
    } else if (char === "[" || char === "{") {
      depth += 1;
    } else if (char === "]" || char === "}") {
      depth -= 1;
      if (depth === 0) return undefined;
    } else if (char === "," && depth === 1) {
      count += 1;
      expecting = true;
    }
  }
  return undefined;
}

function locateInJson(text: string, keyPath: readonly string[]): Located {
  let found: Located = { position: START, depth: 0 };
  let from = 0;
  for (const key of keyPath) {
    const hit = findObjectKey(text, new Set([key]), from);
    if (hit === undefined) return found;
    found = { position: lineAndColumn(text, hit.keyOffset), depth: found.depth + 1 };
    from = hit.valueOffset;
  }
  const raw = /^(-?\d[\d.eE+-]*|"(?:[^"\\\n]|\\.)*"|true|false|null)/.exec(text.slice(from, from + 1024));
  return raw ? { ...found, rawValue: raw[0] } : found;
}

function locateInYaml(text: string, keyPath: readonly string[]): Located {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, keepSourceTokens: false });
  return walkYaml(document.contents, lineCounter, keyPath);
}

function walkYaml(contents: unknown, lineCounter: LineCounter, keyPath: readonly string[]): Located {
  let found: Located = { position: START, depth: 0 };
  const steps = yamlSteps(contents, keyPath);
  for (const step of steps) {
    // A key is located where it is written; a sequence's item at its start.
    const range = (step.key ?? (step.node as { range?: [number, number, number] } | null))?.range;
    if (!range) return found;
    const { line, col } = lineCounter.linePos(range[0]);
    found = { position: { line, column: col }, depth: found.depth + 1 };
  }
  if (steps.length < keyPath.length) return found;
  const node = steps.length === 0 ? contents : steps[steps.length - 1]?.node;
  if (yamlPackage().isScalar(node) && typeof node.source === "string")
    return { ...found, rawValue: node.source };
  return found;
}

/** 1-based line and column of a UTF-16 offset into `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const bounded = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < bounded;
    index = text.indexOf("\n", index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: bounded - lineStart + 1 };
}
