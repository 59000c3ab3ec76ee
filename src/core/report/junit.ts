/**
 * The results of a run as a JUnit XML report, for CI systems that show test reports (GitLab's
 * `artifacts:reports:junit`, Jenkins, Azure Pipelines…): one test case per specification, named by its
 * slug and grouped by its file; failed and timed-out specifications carry a `<failure>` with the
 * reasons. Pure: the caller writes the text where it wants.
 *
 * Everything in the report comes from outside (file names, the service's error messages), so every
 * attribute and text is escaped here, and characters that XML 1.0 cannot carry at all (most control
 * characters, lone surrogates) are written as visible `\uXXXX` text instead.
 */
import type { SpecResult } from "../result.ts";
import { changesHeadline } from "./changes.ts";

export interface JUnitOptions {
  /** Name of the test suite; default `gitbook-openapi`. */
  suiteName?: string;
}

/** Statuses that are a failure of the run, reported as `<failure>`. */
const FAILING = new Set<SpecResult["status"]>(["failed", "timed-out"]);
/** Statuses of a spec that did not run to its end, reported as `<skipped>` with the reason. */
const NOT_RUN = new Set<SpecResult["status"]>(["skipped", "cancelled"]);

export function renderJUnit(results: readonly SpecResult[], options: JUnitOptions = {}): string {
  const suiteName = options.suiteName ?? "gitbook-openapi";
  const failures = results.filter((result) => FAILING.has(result.status)).length;
  const skipped = results.filter((result) => NOT_RUN.has(result.status)).length;
  const totalMs = results.reduce((sum, result) => sum + (result.durationMs ?? 0), 0);
  const counts =
    `tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" ` +
    `time="${seconds(totalMs)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(suiteName)}" ${counts}>`,
    `  <testsuite name="${attribute(suiteName)}" ${counts}>`,
    ...results.map(renderCase),
    "  </testsuite>",
    "</testsuites>",
    "",
  ];
  return lines.join("\n");
}

function renderCase(result: SpecResult): string {
  const time = result.durationMs === undefined ? "" : ` time="${seconds(result.durationMs)}"`;
  const open = `    <testcase classname="${attribute(result.file)}" name="${attribute(result.slug)}"${time}>`;
  const body: string[] = [];
  if (FAILING.has(result.status)) {
    const reasons = result.errors.length > 0 ? result.errors : [defaultReason(result)];
    const type = result.errorCode || result.status;
    body.push(
      `      <failure message="${attribute(reasons[0] ?? "")}" type="${attribute(type)}">` +
        `${text(reasons.join("\n"))}</failure>`,
    );
  } else if (NOT_RUN.has(result.status)) {
    const reason = result.errors[0];
    body.push(reason === undefined ? "      <skipped/>" : `      <skipped message="${attribute(reason)}"/>`);
  }
  const details = describe(result);
  if (details !== "") body.push(`      <system-out>${text(details)}</system-out>`);
  if (body.length === 0) return `${open.slice(0, -1)}/>`;
  return [open, ...body, "    </testcase>"].join("\n");
}

function defaultReason(result: SpecResult): string {
  return result.status === "timed-out"
    ? "GitBook had not finished processing the specification when the timeout ran out."
    : "The specification failed.";
}

/** What a reader of the report wants to open next: the status, the links, the API changes' counts. */
function describe(result: SpecResult): string {
  const lines = [`status: ${result.status}`];
  if (result.operation !== undefined) lines.push(`operation: ${result.operation}`);
  if (result.specVersion !== undefined) lines.push(`spec version: ${result.specVersion}`);
  if (result.versionId !== undefined) lines.push(`version id: ${result.versionId}`);
  if (result.versionUrl !== undefined) lines.push(`version: ${result.versionUrl}`);
  if (result.appUrl !== undefined) lines.push(`app: ${result.appUrl}`);
  if (result.changes !== undefined) lines.push(`API changes: ${changesHeadline(result.changes)}`);
  if (result.warnings !== undefined) {
    const { count, lines: warned } = result.warnings;
    lines.push(
      `${count} validation ${count === 1 ? "warning" : "warnings"} (GitBook takes them; \`strict: true\` refuses them):`,
    );
    lines.push(...warned.map((line) => `  ${line}`));
  }
  return lines.join("\n");
}

/** Milliseconds as seconds with at most three decimals, never negative or NaN. */
function seconds(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return "0";
  return String(Math.round(ms) / 1000);
}

/**
 * Characters XML 1.0 cannot hold even escaped: C0 controls other than tab, line feed and carriage
 * return; U+FFFE and U+FFFF; lone surrogates.
 */
const NOT_XML = new RegExp(
  [
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.source,
    /[\ud800-\udbff](?![\udc00-\udfff])/.source,
    /(?<![\ud800-\udbff])[\udc00-\udfff]/.source,
  ].join("|"),
  "g",
);

function visible(value: string): string {
  return value.replace(NOT_XML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text content: `&`, `<` and `>` escaped (so `]]>` cannot appear), carriage returns kept as `&#13;`. */
function text(value: string): string {
  return visible(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\r", "&#13;");
}

/** Attribute value in double quotes: also quotes, and whitespace that attribute normalization would fold. */
function attribute(value: string): string {
  return text(value)
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\t", "&#9;");
}
