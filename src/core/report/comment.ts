import type { SpecResult } from "../result.ts";
import { MAX_MESSAGE_LENGTH, truncate } from "../text/truncate.ts";
import { type ChangesRoom, renderChanges, shareRoom } from "./changes.ts";
import { type CommentState, commentMarker, renderCommentState } from "./comment-state.ts";
import type { PlaceLinks } from "./line-links.ts";
import { escapeCell, REMOVED_FILE_LABEL, safeUrl } from "./markdown.ts";
import { GITHUB_REVIEW, type ReviewHost } from "./review-host.ts";
import { isFailure, partialCounts, statusLabel, warningsNote } from "./status.ts";

export {
  AZURE_DEVOPS_COMMENT_LIMIT,
  AZURE_DEVOPS_REVIEW,
  GITHUB_COMMENT_LIMIT,
  GITHUB_REVIEW,
  GITLAB_NOTE_LIMIT,
  GITLAB_REVIEW,
  type ReviewHost,
} from "./review-host.ts";

/** Room kept free under the limit, for the note about rows left out and for safety. */
const SIZE_MARGIN = 1_024;
const MAX_MESSAGES_PER_SPEC = 5;

export interface PullRequestCommentInput {
  /** The sanitized or raw `comment-key`; identifies the comment of this action instance. */
  key: string;
  results: SpecResult[];
  mode: "preview" | "publish" | "check";
  /** The review's number: a GitHub pull request's number, a GitLab merge request's IID. */
  pullRequestNumber: number;
  /** Where the comment lives, for its words and size limit; GitHub by default. */
  host?: ReviewHost;
  /** Spec files the review's base had and the head no longer has. */
  removedSpecs?: readonly string[];
  /** Embedded in the body so a later run knows which previews exist. */
  state: CommentState;
  /** Set when the pull request closed and its previews were removed. */
  cleanup?: { deleted: string[]; failed: { slug: string; error: string }[] };
  /** Why the run was stopped before its end (`interrupted by SIGINT`): the results are partial. */
  interrupted?: string;
  /** Where each change's place links to on the repository's host; plain `file:line` without. */
  links?: PlaceLinks;
}

/** The input of {@link renderReviewComment}, under a CI-neutral name. */
export type ReviewCommentInput = PullRequestCommentInput;

/**
 * The body of the action's single review comment: a GitHub pull request comment or a GitLab merge
 * request note (`input.host`). Pure and deterministic: the same input gives the same text, so an
 * unchanged run leaves the comment untouched. Every user-controlled string is escaped, and the body
 * stays under the host's size limit.
 */
export function renderPullRequestComment(input: PullRequestCommentInput): string {
  const host = input.host ?? GITHUB_REVIEW;
  const head = [commentMarker(input.key), host.defuse(`### ${headline(input)}`), ""];
  const tail = ["", renderCommentState(input.key, input.state)];
  const sections: string[] = [];

  if (input.cleanup) sections.push(...cleanupSection(input.cleanup).map((line) => host.defuse(line)));

  const results = [...input.results].sort(compareResults);
  const removed = input.removedSpecs ?? [];
  // The API changes and the results table share the room left: each gets what it needs when both fit,
  // else the smaller one whole when it needs less than half, else half each.
  const room = host.commentLimit - SIZE_MARGIN - joinedLength([...head, ...sections, "", ...tail]);
  const changesRoom = (size: number): ChangesRoom => ({
    size,
    defuse: (line) => host.defuse(line),
    why: `to keep this ${host.commentNoun} under ${host.name}'s limit of ${host.commentLimit.toLocaleString("en-US")} characters`,
    everyChange: host.everyChange,
  });
  const unlimited = Number.POSITIVE_INFINITY;
  const [forChanges, forTable] = shareRoom(
    room,
    joinedLength(renderChanges(results, removed, changesRoom(unlimited), input.links)),
    results.length > 0 ? joinedLength(resultsTable(results, host, unlimited)) : 0,
  );
  sections.push(...renderChanges(results, removed, changesRoom(forChanges), input.links));
  if (results.length > 0) {
    if (sections.length > 0) sections.push("");
    sections.push(...resultsTable(results, host, forTable));
  }
  return [...head, ...sections, ...tail].join("\n");
}

/** {@link renderPullRequestComment} under a CI-neutral name. */
export const renderReviewComment = renderPullRequestComment;

function headline(input: PullRequestCommentInput): string {
  const pr = (input.host ?? GITHUB_REVIEW).reference(input.pullRequestNumber);
  if (input.interrupted) {
    const why = input.interrupted.charAt(0).toUpperCase() + input.interrupted.slice(1);
    if (input.cleanup) {
      const { deleted, failed } = input.cleanup;
      return `🛑 ${why} (cleanup of ${pr}): ${deleted.length} deleted, ${failed.length} not deleted`;
    }
    const what = input.mode === "preview" ? `preview for ${pr}` : `${input.mode} mode`;
    return `🛑 ${why} (${what}): ${partialCounts(input.results)}`;
  }
  if (input.cleanup) {
    const { deleted, failed } = input.cleanup;
    if (failed.length > 0) {
      return `⚠️ ${failed.length} of ${deleted.length + failed.length} preview specs of ${pr} could not be deleted`;
    }
    if (deleted.length === 0) return `🧹 No preview specs of ${pr} to delete`;
    return `🧹 Preview specs of ${pr} deleted`;
  }
  const total = input.results.length;
  const failures = input.results.filter(isFailure).length;
  if (total === 0) return "ℹ️ No OpenAPI specs found";
  if (failures > 0) return `❌ ${failures} of ${total} ${plural(total, "spec")} failed`;
  const specs = `${total} OpenAPI ${plural(total, "spec")}`;
  switch (input.mode) {
    case "check":
      return `✅ ${specs} checked; nothing published (check mode)`;
    case "preview":
      return `✅ ${specs} ${verb(input.results)} to GitBook (preview for ${pr})`;
    case "publish":
      return `✅ ${specs} ${verb(input.results)} to GitBook`;
  }
}

function verb(results: SpecResult[]): string {
  if (results.every((r) => r.status === "submitted")) return "submitted";
  if (results.every((r) => r.status === "unchanged")) return "unchanged on";
  return "published";
}

function cleanupSection(cleanup: NonNullable<PullRequestCommentInput["cleanup"]>): string[] {
  const rows = [
    ...[...cleanup.deleted].sort().map((slug) => `| ${escapeCell(slug)} | ${statusLabel("deleted")} |`),
    ...[...cleanup.failed]
      .sort((a, b) => compareStrings(a.slug, b.slug))
      .map((f) => `| ${escapeCell(f.slug)} | ❌ ${escapeCell(truncate(f.error, MAX_MESSAGE_LENGTH))} |`),
  ];
  if (rows.length === 0) return [];
  return ["| Preview slug | Result |", "| --- | --- |", ...rows];
}

function resultsTable(results: SpecResult[], host: ReviewHost, budget: number): string[] {
  const header = ["| File | Slug | Status | Latest version | Error |", "| --- | --- | --- | --- | --- |"];
  const lines = [...header];
  let used = joinedLength(header);
  for (const [index, result] of results.entries()) {
    const row = host.defuse(resultRow(result));
    if (used + row.length + 1 > budget) {
      const left = results.length - index;
      lines.push(
        "",
        `_${left} more ${plural(left, "spec")} not shown: the comment would exceed ${host.name}'s size limit. ` +
          `See the ${host.runNoun} for all results._`,
      );
      break;
    }
    lines.push(row);
    used += row.length + 1;
  }
  return lines;
}

function resultRow(result: SpecResult): string {
  const url = safeUrl(result.versionUrl) ?? safeUrl(result.appUrl);
  const link = url ? `[${result.specVersion ? escapeCell(result.specVersion) : "view"}](${url})` : "";
  return [
    "",
    result.file ? escapeCell(result.file) : escapeCell(REMOVED_FILE_LABEL),
    escapeCell(result.slug),
    `${statusLabel(result.status)}${warningsNote(result)}`,
    link,
    errorCell(result),
    "",
  ]
    .join(" | ")
    .trim();
}

function errorCell(result: SpecResult): string {
  const parts: string[] = [];
  if (result.errorCode) parts.push(`**${escapeCell(result.errorCode)}**`);
  const shown = result.errors.slice(0, MAX_MESSAGES_PER_SPEC);
  for (const message of shown) parts.push(escapeCell(truncate(message, MAX_MESSAGE_LENGTH)));
  const hidden = result.errors.length - shown.length;
  if (hidden > 0) parts.push(`… and ${hidden} more`);
  return parts.join("<br>");
}

function compareResults(a: SpecResult, b: SpecResult): number {
  return compareStrings(a.file, b.file) || compareStrings(a.slug, b.slug);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

function joinedLength(lines: string[]): number {
  return lines.reduce((sum, line) => sum + line.length + 1, 0);
}
