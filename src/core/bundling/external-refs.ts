import type { ReferenceRule } from "../documents/json-scan.ts";
import { specVersion, typesFor } from "./openapi-types.ts";
import { isMappingReference } from "./spec-files.ts";
import { walkReferences } from "./walk.ts";

/** References that lead to another file: a `$ref` not starting with `#`, a mapping value naming a file. */
export const fileReferenceRule: ReferenceRule = {
  isFileRef: (ref) => !ref.startsWith("#"),
  isFileMappingValue: (value) => isMappingReference(value) && !value.startsWith("#"),
};

/**
 * Every distinct reference in `document` that points outside it: `$ref`s that do not start with `#`, and
 * discriminator mapping values that name another file. Literal data (`example`, `default`, `const`,
 * `enum`, an Example's `value`, …) is not looked into: a `$ref` there is a value, not a reference.
 */
export function findExternalRefs(document: unknown): string[] {
  const found = new Set<string>();
  const { isFileRef, isFileMappingValue } = fileReferenceRule;
  // No memory of visited nodes: a node shared by aliases found again only finds the same references.
  walkReferences(document, [], typesFor(specVersion(document)).root, undefined, {
    ref(_node, _tokens, ref) {
      if (isFileRef(ref)) found.add(ref);
    },
    mapping(mapping) {
      for (const value of Object.values(mapping)) {
        if (typeof value === "string" && isFileMappingValue(value)) found.add(value);
      }
    },
  });
  return [...found];
}

/**
 * An escape inside a quoted string that spells `$` or a letter, or joins two lines (YAML's `"$r\⏎ef"`
 * reads `$ref`): it could spell `$ref` or `mapping`.
 */
const ESCAPED_KEY_CHARACTER = /\\(?:(?:u00|x|U000000)(?:24|[46][1-9a-f]|[57][0-9a])|[\r\n])/i;
/**
 * A `$ref` key whose value starts with `#`: a reference inside the document. On the key's line, or as
 * the first line of a YAML block scalar (`$ref: >-`, how YAML writers fold a long one).
 */
const LOCAL_REF = /^\$ref["']?[ \t]*:[ \t]*(?:["']?#|[>|][-+]?[ \t]*\r?\n[ \t]*#)/;
/** A key `mapping`, quoted or not, its colon maybe on the next line (`? mapping`). */
const MAPPING_KEY = /(?:^|[\s{,])(["']?)mapping\1\s*:/m;
/** A YAML alias used as a key (`*name :`), which could stand for `mapping`. */
const ALIAS_KEY = /(?:^|[\s,[{?])\*[^\s,[\]{}]+\s*:/m;

/**
 * A cheap test on the text before any walk: false only when it provably references no other file —
 * every `$ref` in it is a key whose value starts with `#`, no key is `mapping` (a discriminator's mapping
 * values may name files; the word in prose does not count), and no escape or alias could spell such a
 * key. Anything else is walked.
 */
export function mayReferenceOtherFiles(text: string): boolean {
  if (ESCAPED_KEY_CHARACTER.test(text)) return true;
  if (text.includes("mapping") && (MAPPING_KEY.test(text) || ALIAS_KEY.test(text))) return true;
  for (let at = text.indexOf("$ref"); at !== -1; at = text.indexOf("$ref", at + 4)) {
    if (!LOCAL_REF.test(text.slice(at, at + 64))) return true;
  }
  return false;
}
