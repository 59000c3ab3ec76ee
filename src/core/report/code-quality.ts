/**
 * The run's findings as a GitLab Code Quality report (`artifacts:reports:codequality`): the subset of
 * the Code Climate format GitLab reads, an array of `{description, check_name, fingerprint, severity,
 * location: {path, lines: {begin}}}`. It holds the validation findings the run logged at a place and
 * the breaking API changes of a review; severities and fingerprints are argued in
 * docs/design/code-quality.md.
 */
import { specChangeLine } from "../change-review/change-line.ts";
import type { SourceLocation } from "../logger.ts";
import type { SpecResult } from "../result.ts";
import { sha256Hex } from "../text/sha256.ts";

export type CodeQualitySeverity = "info" | "minor" | "major" | "critical" | "blocker";

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: CodeQualitySeverity;
  location: { path: string; lines: { begin: number } };
}

/** A finding the run logged at a place: a validation problem (error) or finding GitBook takes (warning). */
export interface LoggedFinding {
  level: "error" | "warning";
  message: string;
  location: SourceLocation;
}

/** GitLab shows a description as text; a longer one is cut. */
const MAX_DESCRIPTION = 1000;

/**
 * The issues of a run: validation errors (major) and warnings (minor) at their place, breaking API
 * changes (critical) and those the allow-list accepts (info) at theirs, the specs removed (critical). Each fingerprint hashes what
 * the finding is and where in the API it is (rule, spec, pointer or message), never its line: a finding
 * that only moved keeps it, so GitLab shows only what is new. Identical findings of one file are told
 * apart by their order.
 */
export function codeQualityIssues(
  results: readonly SpecResult[],
  logged: readonly LoggedFinding[],
  removedSpecs: readonly string[] = [],
): CodeQualityIssue[] {
  const issues: CodeQualityIssue[] = [];
  const seen = new Map<string, number>();
  const add = (
    check: string,
    severity: CodeQualitySeverity,
    description: string,
    identity: readonly string[],
    location: SourceLocation,
  ) => {
    const key = JSON.stringify([check, ...identity]);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    issues.push({
      description:
        description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
      check_name: check,
      fingerprint: sha256Hex(`${key}\u0000${occurrence}`),
      severity,
      location: { path: location.file, lines: { begin: location.line ?? 1 } },
    });
  };
  for (const finding of logged) {
    const check =
      finding.level === "error" ? "gitbook-openapi/validation-error" : "gitbook-openapi/validation-warning";
    const severity = finding.level === "error" ? "major" : "minor";
    add(check, severity, finding.message, [finding.location.file, finding.message], finding.location);
  }
  for (const result of results) {
    const lists = [
      ["breaking", "critical", "Breaking API change"],
      ["allowed", "info", "Breaking API change allowed by breaking-allowed"],
    ] as const;
    for (const [list, severity, noun] of lists) {
      for (const change of result.changes?.[list] ?? []) {
        const location = { file: change.file ?? result.file, line: change.line ?? 1 };
        const identity = [
          result.file,
          result.slug,
          change.pointer ?? "",
          change.operation ?? "",
          change.message,
        ];
        const description = `${noun} (${result.slug}): ${specChangeLine(change)}`;
        add(`gitbook-openapi/${change.kind}`, severity, description, identity, location);
      }
    }
  }
  for (const file of removedSpecs)
    add("gitbook-openapi/spec-removed", "critical", "Breaking API change: the spec was removed", [file], {
      file,
      line: 1,
    });
  return issues;
}

/** The report's text: the issues as a JSON array. */
export function renderCodeQuality(
  results: readonly SpecResult[],
  logged: readonly LoggedFinding[],
  removedSpecs: readonly string[] = [],
): string {
  return `${JSON.stringify(codeQualityIssues(results, logged, removedSpecs), null, 2)}\n`;
}
