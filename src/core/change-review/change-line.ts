/**
 * A change of the results in words, for logs and reports: apart from the review's code, so that writing
 * the results of a run loads none of it.
 */
import type { SpecChange } from "../result.ts";

/** A change of the results as one line, as `changeLine` writes an `ApiChange`: its place, then its message. */
export function specChangeLine(change: SpecChange): string {
  return change.operation === undefined ? change.message : `${change.operation}: ${change.message}`;
}

/** Where a placed change is written, as compilers say it: `api/paths/pets.yaml:12` (the file alone without a line). */
export function sourcePlace(change: Pick<SpecChange, "file" | "line">): string {
  return `${change.file ?? ""}${change.line === undefined ? "" : `:${change.line}`}`;
}
