/**
 * `$ref`s inside the document (`#/components/schemas/Pet`) that point to nothing in it: the schema
 * cannot see them, bundling only follows references to other files, and GitBook would render a hole.
 * Found with the bundler's own walk (references everywhere but in literal data: `example`, `default`,
 * `enum`, …). GitBook cannot resolve them: they fail the spec whatever `strict` says.
 */
import { specVersion, typesFor } from "../bundling/openapi-types.ts";
import { pointerTokens } from "../bundling/pointer.ts";
import { walkReferences } from "../bundling/walk.ts";
import { truncate } from "../text/truncate.ts";
import type { StructuralIssue } from "./structure.ts";

/**
 * Every `#…` reference of `document` whose target is missing, or that leads back to itself through
 * `$ref`s only (`A: {$ref: B}`, `B: {$ref: A}`: a loop that names no object), in document order.
 */
export function danglingInternalRefs(document: unknown): StructuralIssue[] {
  const issues: StructuralIssue[] = [];
  const root = typesFor(specVersion(document)).root;
  walkReferences(document, [], root, undefined, {
    ref(node, tokens, ref, _type, optional) {
      if (optional || !ref.startsWith("#")) return;
      const target = resolve(document, ref);
      // Cut: the reference is the document's own text, of any length.
      const quoted = JSON.stringify(truncate(ref, 200));
      if (target === MISSING) {
        issues.push({
          blocking: true,
          keyPath: [...tokens(), "$ref"],
          message: `\`$ref\` ${quoted} points to nothing in this document.`,
        });
      } else if (leadsBack(document, node, target)) {
        issues.push({
          blocking: true,
          keyPath: [...tokens(), "$ref"],
          message: `\`$ref\` ${quoted} leads back to itself through \`$ref\`s only: it stands for no object.`,
        });
      }
    },
    mapping() {},
  });
  return issues;
}

const MISSING = Symbol("missing");

/** The node a `#…` reference names, or {@link MISSING}. */
function resolve(document: unknown, ref: string): unknown {
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return MISSING;
  }
  if (pointer === "") return document;
  if (!pointer.startsWith("/")) return MISSING;
  let node = document;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return MISSING;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** How many `$ref`-only hops a loop is looked for: a longer chain is left alone, and the walk bounded. */
const MAX_HOPS = 32;

/** Whether following `$ref`s from `target` (what `start`'s `$ref` names) comes back to `start`. */
function leadsBack(document: unknown, start: object, target: unknown): boolean {
  let node = target;
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    if (node === start) return true;
    const ref = (node as { $ref?: unknown } | null)?.$ref;
    if (typeof node !== "object" || typeof ref !== "string" || !ref.startsWith("#")) return false;
    node = resolve(document, ref);
  }
  return false;
}
