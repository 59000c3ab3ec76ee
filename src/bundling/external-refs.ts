/** Every distinct `$ref` value in `document` that points outside it (does not start with `#`). */
export function findExternalRefs(document: unknown): string[] {
  const found = new Set<string>();
  const pending: unknown[] = [document];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) found.add(value);
      else pending.push(value);
    }
  }
  return [...found];
}
