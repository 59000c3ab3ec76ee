/**
 * Links from the review comment to the lines that write each change, on the repository's host. The
 * host side (src/adapters/review-host/line-urls.ts) knows how its web pages name a line; the run knows
 * which commits the places were read at. Why and the formats: docs/design/code-quality.md.
 */

/**
 * The web page of line `line` of `file` (relative to the repository's root) at `commit`; undefined when
 * no page can be named safely (a file name no repository holds, a commit that is not an id).
 */
export type LineUrl = (commit: string, file: string, line: number) => string | undefined;

/** What a host gives the run: its line pages, and the commit the head's places link to. */
export interface SourceLinks {
  lineUrl: LineUrl;
  /** The head's commit as the host shows it (a pull request's head, else the commit built). */
  headCommit: string | undefined;
}

/** The comment's links: a place of the head, a place of the base; each absent when it cannot link. */
export interface PlaceLinks {
  head?: ((file: string, line: number) => string | undefined) | undefined;
  base?: ((file: string, line: number) => string | undefined) | undefined;
}

/** The links of a run's places: the head's at the host's head commit, the base's at the review's base commit. */
export function placeLinks(
  source: SourceLinks | undefined,
  baseCommit: string | undefined,
): PlaceLinks | undefined {
  if (!source) return undefined;
  const at = (commit: string | undefined) =>
    commit === undefined ? undefined : (file: string, line: number) => source.lineUrl(commit, file, line);
  return { head: at(source.headCommit), base: at(baseCommit) };
}
