/**
 * The known name a mistyped one most likely meant, for "did you mean" hints: the nearest by edit
 * distance (insertions, deletions, substitutions and swaps of two neighbours, ignoring case), when it is
 * near enough to be a typo rather than another word: at most 2 edits, and at most a third of the
 * longer name. Names are a few dozen short strings, so a plain O(n·m) table is enough.
 */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.min(2, Math.floor(Math.max(name.length, candidate.length) / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `did you mean 'x'?` when a known name is near `name`, else undefined. */
export function didYouMean(name: string, known: Iterable<string>): string | undefined {
  const match = closest(name, known);
  return match === undefined ? undefined : `did you mean '${match}'?`;
}

/** Optimal string alignment distance: Levenshtein, plus a swap of two adjacent characters as one edit. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const table = new Uint16Array((a.length + 1) * width);
  const at = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) table[i * width] = i;
  for (let j = 0; j <= b.length; j++) table[j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      table[i * width + j] = distance;
    }
  return at(a.length, b.length);
}

/**
 * The message for a key nobody declared (`what`, e.g. "setting 'slug-prefx'"): the known key it most
 * likely meant, else every known key (`kind`: what they are called).
 */
export function unknownName(what: string, key: string, known: readonly string[], kind: string): string {
  const hint = didYouMean(key, known);
  return hint ? `unknown ${what}; ${hint}` : `unknown ${what}; the ${kind} are: ${known.join(", ")}.`;
}
