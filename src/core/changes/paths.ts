/** Path keys compared without parameter names: `/pets/{id}` and `/pets/{petId}` are one path. */
const templateKey = (path: string) => path.replace(/\{[^}]*\}/g, "{}");

/**
 * Which head path each base path is: the same text first, then, among the paths left on both sides,
 * the same template with other variable names (`/pets/{id}` → `/pets/{petId}`), in order. Two paths
 * that differ only in their variable names and exist on both sides (`/a/{id}` and `/a/{digest}`) are
 * each their own.
 */
export function matchPaths(before: readonly string[], after: readonly string[]): Map<string, string> {
  const inAfter = new Set(after);
  const matched = new Map<string, string>();
  for (const path of before) if (inAfter.has(path)) matched.set(path, path);
  const taken = new Set(matched.values());
  const free = new Map<string, string[]>();
  for (const path of after) {
    if (taken.has(path)) continue;
    const key = templateKey(path);
    free.set(key, [...(free.get(key) ?? []), path]);
  }
  for (const path of before) {
    if (matched.has(path)) continue;
    const other = free.get(templateKey(path))?.shift();
    if (other !== undefined) matched.set(path, other);
  }
  return matched;
}
