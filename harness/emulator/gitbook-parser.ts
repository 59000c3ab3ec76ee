import { upgrade } from "@scalar/openapi-upgrader";
import { type ParseOutcome, parseSpecText } from "./parse-document.ts";

/**
 * The document GitBook's OpenAPI parser stores for an upload, as `parseOpenAPI` in GitbookIO/gitbook
 * `packages/openapi-parser/src/{parse,v3,v2,filesystem}.ts` builds it (commit 49c993f1, parser 3.0.12,
 * which locks `@scalar/openapi-parser` 0.24.5 and through it `@scalar/openapi-upgrader` 0.1.8 and
 * `@scalar/json-magic` 0.9.4; docs/design/version-content.md):
 *
 * 1. `validate` (Scalar's `Validator`) sets `info.version` to "0.0.1" when `info` is present and its
 *    `version` is falsy (missing or "").
 * 2. Swagger 2.0 only: `upgrade` from `@scalar/openapi-parser`, which is `@scalar/openapi-upgrader`'s
 *    `upgrade(document, "3.1")`: Swagger 2.0 → OpenAPI 3.0.4 → 3.1.1. OpenAPI 3.0 and 3.1 are not
 *    upgraded. A document the upgrader throws on is a failed processing, as in GitBook (`v2-conversion`).
 * 3. `bundle(…, { treeShake: false })` from `@scalar/json-magic`: external `$ref`s are fetched and
 *    folded in (not emulated: the emulator fetches nothing and leaves them as they are), and the
 *    working key `x-ext-urls` it adds at the root is deleted at the end — with any `x-ext-urls` the
 *    upload had there.
 *
 * `test/emulator/gitbook-conformance.test.ts` checks this against the real Scalar pipeline.
 * `document` is changed in place (the upgrader changes its input) and returned, or replaced.
 */
export function storedDocument(document: Record<string, unknown>): Record<string, unknown> {
  const info = document.info;
  if (isObject(info) && !info.version) info.version = "0.0.1";
  const stored =
    document.swagger === "2.0" ? (upgrade(document, "3.1") as Record<string, unknown>) : document;
  delete stored["x-ext-urls"];
  return stored;
}

/** `parseSpecText`, then what GitBook's parser makes of the document (`storedDocument`). */
export function processSpecText(text: string): ParseOutcome {
  const parsed = parseSpecText(text);
  if (!parsed.ok) return parsed;
  try {
    return { ...parsed, document: storedDocument(parsed.document) };
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      errors: [
        { code: "V2_CONVERSION", message: `Failed to convert Swagger 2.0 to OpenAPI 3.1.1: ${cause}` },
      ],
      errorCount: 1,
    };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
