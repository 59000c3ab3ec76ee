/**
 * What shaping one spec may consume, for the spec as a whole: every overlay of the publication (the
 * entry's and its audience's) draws on one {@link ShapingBudget}, so splitting an overlay into 199 files
 * buys nothing. Past a bound the spec fails with the place (the overlay's file and line, or the document
 * path); the run goes on with the other specs. The numbers and their measurements: docs/design/overlays.md,
 * "Bounds per spec".
 */
import { MAX_SPEC_BYTES } from "../files/read-regular.ts";

/**
 * Deepest a document (or an overlay's value, where it lands) may nest, in mappings and lists. The deepest
 * of the real specs measured is 25 levels (Stripe's 4 MB spec3.yaml); recursive code over documents
 * (copies, JSONPath's `..`, `remove-internal`) stays far from the stack's limit here.
 */
export const MAX_DOCUMENT_DEPTH = 200;

/** Most bytes (as JSON) a spec's overlays may add, together. */
export const MAX_ADDED_BYTES = MAX_SPEC_BYTES;

/** Most bytes of overlay text one spec may read, together (each file is also at most 8 MiB). */
export const MAX_OVERLAY_TEXT = MAX_SPEC_BYTES;

/**
 * Most nodes a spec's targets may select, together. A descendant segment selects a node once per
 * ancestor it is reached from, so `$..*..*..*` on a 4 MB spec selects millions (20 s, 1.3 GB); Stripe's
 * whole 4 MB spec has about 100,000 nodes.
 */
export const MAX_SELECTED = 1_000_000;

/**
 * Most members of mappings one spec's targets may walk through, together (what json-p3's `..`, `*` and
 * filters enumerate). A whole pass over Stripe's 4 MB spec walks about 100,000 and takes 0.1–0.2 s; this
 * allows about 100 such passes, and takes 5–20 s where it is reached (longer on deeper documents, whose
 * nodes carry longer locations). Without it, `$..a..a..a..a` on a deeply nested part walks every chain of
 * ancestors, a number that grows as a power of the depth, while selecting nothing.
 */
export const MAX_WALKED = 10_000_000;

/** Longest target (or `copy` path), in characters. */
export const MAX_TARGET_LENGTH = 16_384;

/** Deepest nesting of brackets and parentheses in a target: filters within filters. */
export const MAX_TARGET_NESTING = 32;

/**
 * Most pattern work a spec's `match()`/`search()` calls may do together, counted as the compiled
 * pattern's size times the text's length (what a pass of the linear-time engine costs; about 0.14 µs a
 * unit at worst, when the engine falls back from its DFA). A search of every text of Stripe's 4 MB spec
 * with a typical pattern (`[Dd]eprecated|[Bb]eta`, `.*(internal|preview).*`) is 1.6–3.7 × 10⁷ units, so
 * this allows about ten such passes, and the worst patterns about 35 seconds.
 */
export const MAX_PATTERN_WORK = 250_000_000;

/**
 * What compiling a pattern costs, in the same units: measured at 0.4–2 µs per instruction and about
 * 0.1 ms for any pattern (re2js 2.10.0), so that a document or an overlay full of distinct patterns is
 * bounded like one long text.
 */
export const compileWork = (size: number) => (size + 100) * 10;

/** What one spec's shaping has consumed so far; each bound's overrun is thrown by the caller's code. */
export class ShapingBudget {
  addedBytes = 0;
  overlayText = 0;
  selected = 0;
  walked = 0;
  patternWork = 0;
}

/**
 * The location of the first node deeper than `max` levels (a mapping or list `max` levels down that
 * holds another), or undefined. Iterative: a document nested 100,000 levels is answered, not overflowed.
 */
export function tooDeep(value: unknown, max = MAX_DOCUMENT_DEPTH): Array<string | number> | undefined {
  interface Step {
    value: unknown;
    depth: number;
    key?: string | number;
    parent?: Step;
  }
  const stack: Step[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const node = step.value;
    if (typeof node !== "object" || node === null) continue;
    if (step.depth >= max) {
      const path: Array<string | number> = [];
      for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.unshift(at.key);
      return path;
    }
    const depth = step.depth + 1;
    if (Array.isArray(node))
      for (let index = node.length - 1; index >= 0; index--)
        stack.push({ value: node[index], depth, key: index, parent: step });
    else
      for (const [key, child] of Object.entries(node)) stack.push({ value: child, depth, key, parent: step });
  }
  return undefined;
}

/** Levels of mappings and lists in `value` (0 for a primitive), counted without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A document path for messages, long ones shortened in the middle: `$.components.schemas.A…['x']`. */
export function describePath(path: readonly (string | number)[]): string {
  const part = (key: string | number) =>
    typeof key === "number"
      ? `[${key}]`
      : /^[A-Za-z_]\w*$/.test(key)
        ? `.${key}`
        : `[${JSON.stringify(key)}]`;
  const shown =
    path.length <= 12 ? path.map(part) : [...path.slice(0, 8).map(part), "…", ...path.slice(-3).map(part)];
  return `$${shown.join("")}`;
}
