/**
 * `$ref`s inside the document (`#/components/schemas/Pet`) that point to nothing in it: the schema
 * cannot see them, bundling only follows references to other files, and GitBook would render a hole.
 * Found with the bundler's own walk (references everywhere but in literal data: `example`, `default`,
 * `enum`, …), in the `refs` family.
 */
import { specVersion, typesFor } from "../bundling/openapi-types.ts";
import { walkReferences } from "../bundling/walk.ts";
import { truncate } from "../text/truncate.ts";
import type { StructuralIssue } from "./structure.ts";

/** Every `#…` reference of `document` whose target is missing, in document order. */
export function danglingInternalRefs(document: unknown): StructuralIssue[] {
  const issues: StructuralIssue[] = [];
  const root = typesFor(specVersion(document)).root;
  walkReferences(document, [], root, undefined, {
    ref(_node, tokens, ref, _type, optional) {
      if (optional || !ref.startsWith("#") || resolves(document, ref)) return;
      issues.push({
        family: "refs",
        keyPath: [...tokens(), "$ref"],
        // Cut: the reference is the document's own text, of any length.
        message: `\`$ref\` ${JSON.stringify(truncate(ref, 200))} points to nothing in this document.`,
      });
    },
    mapping() {},
  });
  return issues;
}

function resolves(document: unknown, ref: string): boolean {
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return false;
  }
  if (pointer === "") return true;
  if (!pointer.startsWith("/")) return false;
  let node = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return true;
}
