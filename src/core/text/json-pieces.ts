/**
 * `JSON.stringify(value, null, 2)` in pieces, joined the same text: what a large result (a review's
 * 20,000 changes, 11 MB of JSON) is written as, so that it never stands whole in memory as one string
 * and its bytes (docs/design/memory.md). Every string of the value lies whole within one piece.
 */

const INDENT = "  ";

/** Pieces at most about `size` characters long (one value's text may be longer). */
export function jsonChunks(value: unknown, size = 64 * 1024): Generator<string> {
  return chunked(jsonPieces(value, ""), size);
}

/** `pieces` joined, in order, into chunks of about `size` characters: fewer writes than pieces. */
export function* chunked(pieces: Iterable<string>, size = 64 * 1024): Generator<string> {
  let chunk = "";
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= size) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

function* jsonPieces(value: unknown, indent: string): Generator<string> {
  if (!isContainer(value) || flat(value)) {
    // What JSON.stringify makes of it, its lines indented as they stand here (a JSON string holds no line break).
    yield (JSON.stringify(value, null, 2) ?? "null").replaceAll("\n", `\n${indent}`);
    return;
  }
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    yield "[";
    for (let index = 0; index < value.length; index++) {
      yield `${index === 0 ? "" : ","}\n${inner}`;
      yield* jsonPieces(value[index], inner);
    }
    yield `\n${indent}]`;
    return;
  }
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (!written(item)) continue;
    yield `${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: `;
    yield* jsonPieces(item, inner);
    first = false;
  }
  yield first ? "{}" : `\n${indent}}`;
}

/** An array or a plain object that JSON.stringify writes member by member (no `toJSON`). */
function isContainer(value: unknown): value is object {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function" &&
    (Array.isArray(value) ||
      Object.getPrototypeOf(value) === Object.prototype ||
      Object.getPrototypeOf(value) === null)
  );
}

/** Empty, or holding no container: written by JSON.stringify in one piece. */
function flat(value: object): boolean {
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.every((item) => typeof item !== "object" || item === null);
}

/** Whether an object's member is written at all (JSON.stringify leaves these out). */
function written(item: unknown): boolean {
  return item !== undefined && typeof item !== "function" && typeof item !== "symbol";
}
