import { isRecord, pointerFromTokens } from "./pointer.ts";

/**
 * Where each node of `document` sits as written (`$ref`s not followed), so that the root's own nodes keep
 * their places in the bundle and its internal references stay as they were.
 */
export function ownPlaces(document: unknown): Map<object, string> {
  const places = new Map<object, string>();
  const pending: [unknown, string[]][] = [[document, []]];
  for (const [node, tokens] of pending) {
    if (!isRecord(node) || typeof node.$ref === "string" || places.has(node)) continue;
    places.set(node, pointerFromTokens(tokens));
    for (const [key, value] of Object.entries(node)) pending.push([value, [...tokens, key]]);
  }
  return places;
}

/**
 * Turns a dereferenced document, an object graph in which a node referenced several times (or from
 * inside itself) is one shared object, into a tree: each shared node is written once, at its place in
 * `places` or else where a breadth-first walk first meets it, and everywhere else as an internal `$ref`
 * to that place. Every place is reached through written nodes only, so every pointer names a real node.
 */
export function treeWithInternalRefs(graph: unknown, places: Map<object, string>): unknown {
  const placed = new Map(places);
  const pending: [Record<string, unknown>, Record<string, unknown>, string[]][] = [];
  const write = (node: unknown, tokens: string[]): unknown => {
    if (!isRecord(node)) return node;
    const pointer = pointerFromTokens(tokens);
    const place = placed.get(node) ?? pointer;
    if (place !== pointer) return { $ref: `#${encodeFragment(place)}` };
    placed.set(node, pointer);
    const copy = Array.isArray(node) ? [] : {};
    pending.push([node, copy as Record<string, unknown>, tokens]);
    return copy;
  };
  const tree = write(graph, []);
  for (const [node, copy, tokens] of pending) {
    for (const [key, value] of Object.entries(node)) copy[key] = write(value, [...tokens, key]);
  }
  return tree;
}

/** Percent-encodes what a URI fragment may not contain, keeping JSON-pointer characters readable. */
function encodeFragment(pointer: string): string {
  return encodeURI(pointer).replaceAll("#", "%23");
}
