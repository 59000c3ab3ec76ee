import type { SpecResult } from "../sync/result.ts";
import { renderChanges } from "./changes.ts";
import {
  codeBlock,
  codeCell,
  escapeCell,
  escapeText,
  markdownLink,
  REMOVED_FILE_LABEL,
  truncate,
} from "./markdown.ts";
import { countBy, failureReason, isFailure, statusLabel } from "./status.ts";

export interface SummaryInput {
  mode: string;
  organizationId: string | undefined;
  results: readonly SpecResult[];
  durationMs: number;
  /** Why nothing was published, when the run skipped on purpose (e.g. a fork's pull request). */
  skippedReason?: string;
  /** Why the run stopped before any upload. */
  stoppedReason?: string;
  /** Slug collisions, with the inputs that fix them: their files failed, the others went on. */
  slugCollisions?: string;
  /** In a review: spec files the base had and the head no longer has. */
  removedSpecs?: readonly string[];
}

/** The job summary (GITHUB_STEP_SUMMARY): a headline and one table row per spec. */
export function renderJobSummary(input: SummaryInput): string {
  const lines = [`## GitBook OpenAPI: ${headline(input)}`, ""];
  if (input.skippedReason) lines.push(`> ${escapeText(input.skippedReason)}`, "");
  if (input.stoppedReason)
    lines.push("The run stopped before any upload:", "", codeBlock(input.stoppedReason), "");
  if (input.slugCollisions)
    lines.push("The colliding specs were not published:", "", codeBlock(input.slugCollisions), "");
  if (input.results.length > 0) {
    const showVersion = input.results.some((r) => r.specVersion !== undefined);
    lines.push(
      `| File | Slug | Status |${showVersion ? " Spec version |" : ""} Latest version | Error |`,
      `| --- | --- | --- |${showVersion ? " --- |" : ""} --- | --- |`,
    );
    for (const result of input.results) {
      const cells = [
        result.file ? codeCell(result.file) : escapeCell(REMOVED_FILE_LABEL),
        codeCell(result.slug),
        `${statusLabel(result.status)}${operationNote(result)}`,
        ...(showVersion ? [escapeCell(result.specVersion ?? "")] : []),
        markdownLink(result.versionId ?? "open", result.versionUrl) || markdownLink("app", result.appUrl),
        isFailure(result) || result.errors.length > 0
          ? escapeCell(truncate(failureReason(result), 500))
          : " ",
      ];
      lines.push(`| ${cells.join(" | ")} |`);
    }
    lines.push("");
  }
  const changes = renderChanges(input.results, input.removedSpecs ?? []);
  if (changes.length > 0) lines.push(...changes);
  const org = input.organizationId ? ` · organization ${codeCell(input.organizationId)}` : "";
  lines.push(`<sub>mode \`${input.mode}\`${org} · ${(input.durationMs / 1000).toFixed(1)} s</sub>`, "");
  return lines.join("\n");
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
}: Pick<SummaryInput, "results" | "skippedReason" | "stoppedReason">): string {
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
