import { specVersion, typesFor } from "./openapi-types.ts";
import { isMappingReference } from "./spec-files.ts";
import { walkReferences } from "./walk.ts";

/**
 * Every distinct reference in `document` that points outside it: `$ref`s that do not start with `#`, and
 * discriminator mapping values that name another file. Literal data (`example`, `default`, `const`,
 * `enum`, an Example's `value`, …) is not looked into: a `$ref` there is a value, not a reference.
 */
export function findExternalRefs(document: unknown): string[] {
  const found = new Set<string>();
  const external = (ref: string) => !ref.startsWith("#");
  walkReferences(document, [], typesFor(specVersion(document)).root, new WeakMap(), {
    ref(_node, _tokens, ref) {
      if (external(ref)) found.add(ref);
    },
    mapping(mapping) {
      for (const value of Object.values(mapping)) {
        if (typeof value === "string" && isMappingReference(value) && external(value)) found.add(value);
      }
    },
  });
  return [...found];
}
