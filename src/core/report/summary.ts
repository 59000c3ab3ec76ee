import type { SpecResult } from "../result.ts";
import { truncate } from "../text/truncate.ts";
import { type ChangesRoom, renderChanges, shareRoom } from "./changes.ts";
import { codeBlock, codeCell, escapeCell, escapeText, markdownLink, REMOVED_FILE_LABEL } from "./markdown.ts";
import { countBy, failureReason, isFailure, partialCounts, statusLabel, warningsNote } from "./status.ts";

export interface SummaryInput {
  mode: string;
  organizationId: string | undefined;
  results: readonly SpecResult[];
  durationMs: number;
  /** Why nothing was published, when the run skipped on purpose (e.g. a fork's pull request). */
  skippedReason?: string;
  /** Why the run stopped before any upload. */
  stoppedReason?: string;
  /** Why a signal stopped the run (`interrupted by SIGINT`, a cancelled job): the results are partial. */
  interrupted?: string;
  /** Slug collisions, with the inputs that fix them: their files failed, the others went on. */
  slugCollisions?: string;
  /** In a review: spec files the base had and the head no longer has. */
  removedSpecs?: readonly string[];
  /** Why pruning could not run (the run failed; every spec's row may be fine). */
  pruneFailure?: string;
}

/**
 * GitHub keeps at most 1 MiB of job summary per step: a larger one is refused and the step shows none.
 * The summary is measured in UTF-8 bytes and kept {@link SUMMARY_MARGIN} under it.
 */
export const SUMMARY_LIMIT = 1024 * 1024;
/** Room kept free under the limit: notes about rows left out, redaction, the line break `write` adds. */
const SUMMARY_MARGIN = 4 * 1024;

const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * The job summary (GITHUB_STEP_SUMMARY): a headline, one table row per spec, the API changes of a
 * review; under {@link SUMMARY_LIMIT} however many specs and changes there are.
 */
export function renderJobSummary(input: SummaryInput): string {
  const lines = [`## GitBook OpenAPI: ${headline(input)}`, ""];
  if (input.skippedReason) lines.push(`> ${escapeText(input.skippedReason)}`, "");
  if (input.stoppedReason)
    lines.push("The run stopped before any upload:", "", codeBlock(input.stoppedReason), "");
  if (input.interrupted)
    lines.push(
      `> The run was ${escapeText(input.interrupted)} (a cancelled job): no spec started after it, and the specs still under way are marked cancelled.`,
      "",
    );
  if (input.slugCollisions)
    lines.push("The colliding specs were not published:", "", codeBlock(input.slugCollisions), "");
  if (input.pruneFailure) lines.push(codeBlock(input.pruneFailure), "");
  const org = input.organizationId ? ` · organization ${codeCell(input.organizationId)}` : "";
  const footer = [`<sub>mode \`${input.mode}\`${org} · ${(input.durationMs / 1000).toFixed(1)} s</sub>`, ""];

  const room = SUMMARY_LIMIT - SUMMARY_MARGIN - sizeOf([...lines, ...footer]);
  const rows = resultRows(input.results);
  const changesRoom = (size: number): ChangesRoom => ({
    size,
    measure: utf8Bytes,
    why: "to keep this job summary under its limit of 1 MiB",
    everyChange:
      "The `results` output holds them all, and `gitbook-openapi diff <base file> <head file>` lists them.",
  });
  const removed = input.removedSpecs ?? [];
  const unlimited = Number.POSITIVE_INFINITY;
  const [forTable, forChanges] = shareRoom(
    room,
    sizeOf(rows),
    sizeOf(renderChanges(input.results, removed, changesRoom(unlimited))),
  );
  lines.push(...fitRows(rows, forTable), ...renderChanges(input.results, removed, changesRoom(forChanges)));
  lines.push(...footer);
  return lines.join("\n");
}

/** The results table, header included, and a blank line after it; empty without results. */
function resultRows(results: readonly SpecResult[]): string[] {
  if (results.length === 0) return [];
  const showVersion = results.some((r) => r.specVersion !== undefined);
  const lines = [
    `| File | Slug | Status |${showVersion ? " Spec version |" : ""} Latest version | Error |`,
    `| --- | --- | --- |${showVersion ? " --- |" : ""} --- | --- |`,
  ];
  for (const result of results) {
    const cells = [
      result.file ? codeCell(result.file) : escapeCell(REMOVED_FILE_LABEL),
      codeCell(result.slug),
      `${statusLabel(result.status)}${operationNote(result)}${warningsNote(result)}`,
      ...(showVersion ? [escapeCell(result.specVersion ?? "")] : []),
      markdownLink(result.versionId ?? "open", result.versionUrl) || markdownLink("app", result.appUrl),
      isFailure(result) || result.errors.length > 0 ? escapeCell(truncate(failureReason(result), 500)) : " ",
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  lines.push("");
  return lines;
}

/** The table's first rows that fit in `size` bytes, and a note saying how many were left out. */
function fitRows(rows: readonly string[], size: number): string[] {
  if (sizeOf(rows) <= size) return [...rows];
  const kept = rows.slice(0, 2);
  let used = sizeOf(kept);
  const body = rows.slice(2, -1);
  for (const row of body) {
    if (used + utf8Bytes(row) + 1 > size) break;
    kept.push(row);
    used += utf8Bytes(row) + 1;
  }
  const left = body.length - (kept.length - 2);
  kept.push(
    "",
    `_${left} more ${left === 1 ? "spec" : "specs"} not shown, to keep this job summary under its limit of 1 MiB: the \`results\` output holds every spec._`,
    "",
  );
  return kept;
}

function sizeOf(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + utf8Bytes(line) + 1, 0);
}

function operationNote(result: SpecResult): string {
  if (result.operation === "create") return " (new)";
  if (result.operation === "update") return " (update)";
  return "";
}

export function headline({
  results,
  skippedReason,
  stoppedReason,
  interrupted,
}: Pick<SummaryInput, "results" | "skippedReason" | "stoppedReason" | "interrupted">): string {
  if (interrupted) return `${interrupted}: ${partialCounts(results)}`;
  if (stoppedReason) return "stopped before any upload";
  if (skippedReason && results.length === 0) return "skipped";
  if (results.length === 0) return "no OpenAPI specs found";
  const counts = countBy(results);
  const failed = counts.failed + counts["timed-out"];
  const total = results.length;
  const noun = total === 1 ? "spec" : "specs";
  if (failed > 0) return `${failed} of ${total} ${noun} failed`;
  if (counts.deleted === total) return `${total} preview ${noun} deleted`;
  if (counts.planned === total) return `${total} ${noun} checked`;
  if (counts.submitted > 0) return `${total} ${noun} submitted`;
  if (counts.skipped === total) return `${total} ${noun} skipped`;
  if (counts.unchanged === total) return `all ${total} ${noun} unchanged`;
  if (counts.unchanged > 0) return `${counts.published} published, ${counts.unchanged} unchanged`;
  return `all ${total} ${noun} published`;
}
