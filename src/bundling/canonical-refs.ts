import { isRecord, pointerFromTokens, pointerTokens } from "./pointer.ts";

/**
 * Rewrites every internal `$ref` of a bundled document so that its pointer never passes *through* another
 * `$ref` (json-schema-ref-parser's `bundle()` can produce such pointers, which many tools cannot follow).
 * Mutates `document` and returns it.
 */
export function canonicalizeInternalRefs<T>(document: T): T {
  const holders: Record<string, unknown>[] = [];
  const pending: unknown[] = [document];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isRecord(node) || seen.has(node)) continue;
    seen.add(node);
    if (typeof node.$ref === "string" && node.$ref.startsWith("#")) holders.push(node);
    pending.push(...Object.values(node));
  }
  for (const holder of holders) {
    const tokens = pointerTokens(safeDecode((holder.$ref as string).slice(1)));
    const direct = directPath(document, tokens, 0);
    if (direct !== undefined && direct.join("/") !== tokens.join("/")) {
      holder.$ref = `#${encodeFragment(pointerFromTokens(direct))}`;
    }
  }
  return document;
}

const maxHops = 100;

/** The path of the node `tokens` names, following `$ref`s met on the way; undefined when there is none. */
function directPath(document: unknown, tokens: readonly string[], depth: number): string[] | undefined {
  if (depth > maxHops) return undefined;
  let path: string[] = [];
  let node = document;
  for (const token of tokens) {
    for (
      let hops = 0;
      isRecord(node) && typeof node.$ref === "string" && !Object.hasOwn(node, token);
      hops++
    ) {
      if (!node.$ref.startsWith("#") || hops > maxHops) return undefined;
      const resolved = directPath(document, pointerTokens(safeDecode(node.$ref.slice(1))), depth + 1);
      if (resolved === undefined) return undefined;
      path = resolved;
      node = nodeAt(document, path);
    }
    if (!isRecord(node) || !Object.hasOwn(node, token)) return undefined;
    path = [...path, token];
    node = node[token];
  }
  return path;
}

function nodeAt(document: unknown, path: readonly string[]): unknown {
  let node = document;
  for (const token of path) node = isRecord(node) ? node[token] : undefined;
  return node;
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Percent-encodes what a URI fragment may not contain, keeping JSON-pointer characters readable. */
function encodeFragment(pointer: string): string {
  return encodeURI(pointer).replaceAll("#", "%23");
}
