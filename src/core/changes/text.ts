import { pointerFromTokens } from "../bundling/pointer.ts";
import { truncate } from "../text/truncate.ts";
import { escapeUnprintable } from "../text/unprintable.ts";
import { MAX_MESSAGE_LENGTH } from "./types.ts";

/** A name from a document (path, parameter, property, media type), made visible, one line and bounded. */
export function quote(text: unknown, max = 120): string {
  const raw = typeof text === "string" ? text : (JSON.stringify(text) ?? String(text));
  return truncate(escapeUnprintable(raw), max);
}

/** A message: control characters escaped, cut to {@link MAX_MESSAGE_LENGTH}. */
export function oneLine(text: string): string {
  return quote(text, MAX_MESSAGE_LENGTH);
}

/** RFC 6901 pointer of a path of keys, as a URI fragment. */
export function pointer(path: readonly (string | number)[]): string {
  return `#${pointerFromTokens(path.map(String))}`;
}

/**
 * Where a change is, as a reviewer names it: `GET /pets/{id}` for an operation, the path alone for a
 * path, undefined for the document as a whole. A change's `message` never repeats it.
 */
export function changePlace(change: { path?: string; method?: string }): string | undefined {
  if (change.path === undefined) return undefined;
  const path = quote(change.path);
  return change.method === undefined ? path : `${change.method} ${path}`;
}

/** A change as one line: its place, then its message. */
export function changeLine(change: { path?: string; method?: string; message: string }): string {
  const place = changePlace(change);
  return place === undefined ? change.message : `${place}: ${change.message}`;
}
