import type { Logger, SourceLocation } from "../../core/logger.ts";
import type { ProgressEvent, ProgressListener } from "../../core/sync/pipeline.ts";
import type { SpecStatus } from "../../core/sync/result.ts";
import { type Output, printable } from "./output.ts";

export interface CliLogOptions {
  /** GitLab CI: groups become collapsible sections of the job log. */
  gitlabSections: boolean;
  /** Print debug lines too (`GITBOOK_DEBUG=1`). */
  debug: boolean;
  /** stderr is a terminal: a live progress line is kept under the log. */
  live: boolean;
}

/**
 * The CLI's log, on stderr (stdout is kept for `--json`): plain lines, a level prefix on problems,
 * groups as an indented block — or as GitLab's collapsible sections — and, on a terminal, a live line
 * counting the specs uploaded, processing and done. Every text is made printable first.
 */
export function createCliLog(
  output: Output,
  options: CliLogOptions,
): { logger: Logger; progress: ProgressListener } {
  const counts = { total: 0, staged: 0, finished: 0, published: 0, failed: 0 };
  let liveShown = false;
  const write = (text: string) => {
    if (liveShown) output.err("\r\x1b[K");
    output.err(text);
    if (options.live && counts.total > 0 && counts.finished < counts.total) {
      output.err(liveLine(counts));
      liveShown = true;
    } else liveShown = false;
  };
  let depth = 0;
  const line = (text: string) => write(`${printable(depth > 0 ? indent(text) : text, true)}\n`);
  const problem = (label: string) => (message: string, location?: SourceLocation) =>
    line(`${label}: ${where(location)}${message}`);
  let sections = 0;

  const logger: Logger = {
    debug: (message) => {
      if (options.debug) line(`debug: ${message}`);
    },
    info: line,
    notice: problem("notice"),
    warning: problem("warning"),
    error: problem("error"),
    group(title, body) {
      if (!options.gitlabSections) {
        line(title);
        depth += 1;
        try {
          body();
        } finally {
          depth -= 1;
        }
        return;
      }
      const name = `gitbook_openapi_${++sections}`;
      const now = () => Math.floor(Date.now() / 1000);
      write(`\x1b[0Ksection_start:${now()}:${name}[collapsed=true]\r\x1b[0K${printable(title)}\n`);
      try {
        body();
      } finally {
        write(`\x1b[0Ksection_end:${now()}:${name}\r\x1b[0K\n`);
      }
    },
  };

  const progress = (event: ProgressEvent) => {
    if (event.kind === "planned") counts.total = event.total;
    else if (event.kind === "staged") counts.staged += 1;
    else {
      counts.finished += 1;
      if (isSuccess(event.result.status)) counts.published += 1;
      else counts.failed += 1;
    }
    if (!options.live) return;
    if (liveShown) output.err("\r\x1b[K");
    if (counts.finished < counts.total) {
      output.err(liveLine(counts));
      liveShown = true;
    } else liveShown = false;
  };
  return { logger, progress };
}

function liveLine(counts: {
  total: number;
  staged: number;
  finished: number;
  published: number;
  failed: number;
}) {
  const processing = counts.staged - counts.finished;
  return `${counts.finished}/${counts.total} done · ${counts.staged} uploaded · ${processing} processing · ${counts.published} ok · ${counts.failed} failed`;
}

function isSuccess(status: SpecStatus): boolean {
  return (
    status === "published" ||
    status === "unchanged" ||
    status === "submitted" ||
    status === "planned" ||
    status === "deleted"
  );
}

function where(location: SourceLocation | undefined): string {
  if (!location) return "";
  const line = location.line ? `:${location.line}${location.column ? `:${location.column}` : ""}` : "";
  return `${location.file}${line}: `;
}

function indent(message: string): string {
  return message
    .split("\n")
    .map((text) => `  ${text}`)
    .join("\n");
}
