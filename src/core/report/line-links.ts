/**
 * Links from the review comment to the lines that write each change, on the repository's host. The
 * host side (src/adapters/review-host/line-urls.ts) knows how its web pages name a line; the run knows
 * which commits the places were read at. Why and the formats: docs/design/code-quality.md.
 */
import type { PlaceLinks, SourceLinks } from "../ports.ts";

export type { LineUrl, PlaceLinks, SourceLinks } from "../ports.ts";

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
