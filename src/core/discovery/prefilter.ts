const TOKENS = [Buffer.from("openapi"), Buffer.from("swagger")];

/** Candidates are YAML or JSON files, by extension in any case. */
export function isCandidatePath(filePath: string): boolean {
  return /\.(ya?ml|json)$/i.test(filePath);
}

/** The same selection as git pathspecs, so git lists only candidates. */
export const CANDIDATE_PATHSPECS: readonly string[] = [":(icase)*.yaml", ":(icase)*.yml", ":(icase)*.json"];

/**
 * A safe, cheap test before parsing: false only when the bytes provably contain neither `openapi` nor
 * `swagger`, so no top-level key of that name can exist. (Keys are case-sensitive in both formats. An
 * escaped JSON key such as "\u006fpenapi" is not recognised; no real specification writes that.)
 */
export function mayDeclareSpec(bytes: Uint8Array): boolean {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return TOKENS.some((token) => buffer.includes(token));
}
