import { specChangeLine } from "../review/change-review.ts";
import type { SpecResult } from "../sync/result.ts";
import { escapeText, truncate } from "./markdown.ts";

const MAX_LINES_PER_LIST = 20;
const MAX_LINE = 200;

/**
 * "2 breaking, 5 other changes", the one-line headline of a spec's changes; "not reviewed: <why>" when
 * its comparison could not finish.
 */
export function changesHeadline(changes: NonNullable<SpecResult["changes"]>): string {
  if (changes.notReviewed !== undefined) return `not reviewed: ${changes.notReviewed}`;
  const parts = [
    `${changes.breaking.length} breaking`,
    `${changes.other.length} other change${changes.other.length === 1 ? "" : "s"}`,
  ];
  if (changes.allowed.length > 0) parts.push(`${changes.allowed.length} breaking allowed`);
  return parts.join(", ");
}

/**
 * The API changes of a review as Markdown: per spec with changes, its headline, the breaking changes
 * listed, the rest folded, or why it was not reviewed; then the specs removed since the base. Every text from the documents is
 * escaped and cut; long lists are cut with a count. Empty when nothing changed.
 */
export function renderChanges(
  results: readonly SpecResult[],
  removedSpecs: readonly string[],
  defuse: (line: string) => string = (line) => line,
): string[] {
  const changed = results.filter(
    (result) =>
      result.changes &&
      (result.changes.notReviewed !== undefined ||
        result.changes.breaking.length + result.changes.other.length + result.changes.allowed.length > 0),
  );
  if (changed.length === 0 && removedSpecs.length === 0) return [];
  const against =
    changed[0]?.changes?.against === "published version" ? "the published versions" : "the base commit";
  const lines = ["#### API changes", "", `Compared with ${against}.`, ""];
  for (const result of changed) {
    const changes = result.changes as NonNullable<SpecResult["changes"]>;
    const headline = `${changes.notReviewed === undefined ? "" : "⚠️ "}${changesHeadline(changes)}`;
    lines.push(`**${escapeText(result.file)}**: ${escapeText(truncate(headline, MAX_LINE))}`, "");
    if (changes.notReviewed !== undefined) continue;
    lines.push(...bullets(changes.breaking.map((change) => `⚠️ ${specChangeLine(change)}`)));
    lines.push(...bullets(changes.allowed.map((change) => `${specChangeLine(change)} (allowed)`)));
    if (changes.other.length > 0) {
      const other = changes.other.map(specChangeLine);
      lines.push("<details><summary>Other changes</summary>", "", ...bullets(other), "</details>");
    }
    lines.push("");
  }
  if (removedSpecs.length > 0) {
    lines.push(`**Removed specs** (breaking): ${removedSpecs.length}`, "", ...bullets(removedSpecs), "");
  }
  return lines.map(defuse);
}

function bullets(items: readonly string[]): string[] {
  const shown = items.slice(0, MAX_LINES_PER_LIST).map((item) => `- ${escapeText(truncate(item, MAX_LINE))}`);
  const hidden = items.length - MAX_LINES_PER_LIST;
  return hidden > 0 ? [...shown, `- … and ${hidden} more`] : shown;
}
