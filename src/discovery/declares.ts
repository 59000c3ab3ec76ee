import { findObjectKey } from "./json-keys.ts";

const SPEC_KEYS: ReadonlySet<string> = new Set(["openapi", "swagger"]);

/**
 * Whether an unparsable file still declares `openapi` or `swagger` at its top level, which makes it a
 * broken specification rather than an unrelated file. YAML: the key at the start of a line (quoted or
 * not). JSON: a key of the outermost object, found by a scan that tracks strings and nesting.
 */
export function declaresSpecKey(text: string): boolean {
  if (/^(["']?)(openapi|swagger)\1[ \t]*:/m.test(text)) return true;
  return findObjectKey(text, SPEC_KEYS) !== undefined;
}
