/**
 * The API changes of a review as annotations at their place (a GitHub Action's `::error file=,line=`):
 * breaking changes as errors, those the allow-list accepts and the others as notices. GitHub shows a
 * step's first annotations of each level only, so a run annotates {@link MAX_ANNOTATED_BREAKING}
 * breaking changes and {@link MAX_ANNOTATED_OTHER} others; the comment and the summary list them all.
 */

import { specChangeLine } from "../change-review/change-line.ts";
import type { SourceLocation } from "../logger.ts";
import type { SpecChange, SpecResult } from "../result.ts";

export const MAX_ANNOTATED_BREAKING = 50;
export const MAX_ANNOTATED_OTHER = 10;

export interface ChangeAnnotation {
  level: "error" | "notice";
  message: string;
  location: SourceLocation;
}

/** The annotations of the placed changes of `results`, breaking ones first; the rest counted. */
export function changeAnnotations(results: readonly SpecResult[]): {
  annotations: ChangeAnnotation[];
  left: number;
} {
  const annotations: ChangeAnnotation[] = [];
  let left = 0;
  const lists = [
    ["breaking", "error", MAX_ANNOTATED_BREAKING],
    ["allowed", "notice", MAX_ANNOTATED_OTHER],
    ["other", "notice", MAX_ANNOTATED_OTHER],
  ] as const;
  const taken = { error: 0, notice: 0 };
  for (const [list, level, max] of lists) {
    for (const result of results) {
      for (const change of result.changes?.[list] ?? []) {
        if (change.file === undefined) continue;
        if (taken[level] >= max) {
          left++;
          continue;
        }
        taken[level]++;
        annotations.push({ level, message: annotationText(list, change, result), location: placeOf(change) });
      }
    }
  }
  return { annotations, left };
}

function placeOf(change: SpecChange): SourceLocation {
  return { file: change.file as string, ...(change.line === undefined ? {} : { line: change.line }) };
}

function annotationText(
  list: "breaking" | "allowed" | "other",
  change: SpecChange,
  result: SpecResult,
): string {
  const noun =
    list === "breaking"
      ? "Breaking API change"
      : list === "allowed"
        ? "Breaking API change (allowed by breaking-allowed)"
        : "API change";
  const spec = change.file === result.file ? "" : ` (spec ${result.file})`;
  return `${noun}${spec}: ${specChangeLine(change)}`;
}
