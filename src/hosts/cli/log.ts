import type { Logger, SourceLocation } from "../../core/logger.ts";
import type { ProgressEvent, ProgressListener } from "../../core/ports.ts";
import type { SpecStatus } from "../../core/result.ts";
import { truncate } from "../../core/text/truncate.ts";
import { type Output, printable } from "./output.ts";
import { NO_COLORS, type Paint, type Palette, statusPaint } from "./terminal.ts";

export interface CliLogOptions {
  /** GitLab CI: groups become collapsible sections of the job log. */
  gitlabSections: boolean;
  /** Print debug lines too (`GITBOOK_DEBUG=1`). */
  debug: boolean;
  /**
   * stderr is a terminal this many columns wide: a live progress line, cut to fit, is kept under the
   * log. Undefined: no live line (a pipe, a file, a dumb terminal, an unknown width).
   */
  liveColumns: number | undefined;
  /** `--quiet`: errors only; the live line, notes, warnings and group titles are left out. */
  quiet?: boolean;
  /** The colours of labels and statuses (none by default). */
  palette?: Palette;
}

/**
 * The CLI's log, on stderr (stdout is kept for `--json`): plain lines, a level prefix on problems,
 * groups as an indented block — or as GitLab's collapsible sections — and, on a terminal, a live line
 * counting the specs uploaded, processing and done, never wider than the terminal (a wrapped line
 * could not be rewritten in place: each redraw would leave a row behind). Every text is made printable
 * first, then painted.
 */
export function createCliLog(
  output: Output,
  options: CliLogOptions,
): { logger: Logger; progress: ProgressListener } {
  const counts = { total: 0, staged: 0, finished: 0, published: 0, failed: 0 };
  const palette = options.palette ?? NO_COLORS;
  const quiet = options.quiet === true;
  const columns = quiet ? undefined : options.liveColumns;
  let liveShown = false;
  const redrawLive = () => {
    if (liveShown) output.err("\r\x1b[K");
    if (columns !== undefined && counts.total > 0 && counts.finished < counts.total) {
      // One column is left free: a line that fills the last one leaves the cursor waiting to wrap.
      output.err(truncate(liveLine(counts), columns - 1));
      liveShown = true;
    } else liveShown = false;
  };
  const write = (text: string) => {
    if (liveShown) {
      output.err("\r\x1b[K");
      liveShown = false;
    }
    output.err(text);
    redrawLive();
  };
  let depth = 0;
  const line = (text: string, paint?: Paint) => {
    const printed = printable(depth > 0 && !quiet ? indent(text) : text, true);
    write(`${paint ? paint(printed) : printed}\n`);
  };
  // Only the label is painted: the first `label:` of the printed line, after its indentation.
  const problem = (label: string, paint?: Paint) => (message: string, location?: SourceLocation) =>
    line(`${label}: ${where(location, message)}${message}`, (printed) =>
      printed.replace(`${label}:`, (found) => (paint ? paint(found) : found)),
    );
  let sections = 0;
  const say = (write: (message: string) => void) => (quiet ? () => {} : write);

  const logger: Logger = {
    debug: (message) => {
      if (options.debug) line(`debug: ${message}`);
    },
    info: say((message) => line(message)),
    notice: say(problem("notice")),
    warning: say(problem("warning", palette.yellow)),
    error: problem("error", palette.red),
    group(title, body) {
      if (quiet || !options.gitlabSections) {
        // A title is one line (a file name in it may hold a line break: shown escaped, never a new line).
        if (!quiet) line(printable(title), titlePaint(palette));
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
    redrawLive();
  };
  return { logger, progress };
}

/** A spec's group title ends with its status (`a.yaml → a: failed`): that word is painted as the status. */
function titlePaint(palette: Palette): Paint {
  return (printed) => printed.replace(/(?<=: )[a-z-]+$/, (status) => statusPaint(palette, status)(status));
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

/**
 * The problem's place before its message, unless the message's first clause already names the file
 * and there is no line to add (`a.yaml: …`, `Skipped a.yaml: …`, which the Action's log needs as they are).
 */
function where(location: SourceLocation | undefined, message: string): string {
  if (!location) return "";
  const line = location.line ? `:${location.line}${location.column ? `:${location.column}` : ""}` : "";
  if (line === "" && (message.split(": ", 1)[0] ?? "").split(/[\s()]+/).includes(location.file)) return "";
  // The file name on one line: a line break in it would start a line that looks like the log's own.
  return `${printable(location.file)}${line}: `;
}

function indent(message: string): string {
  return message
    .split("\n")
    .map((text) => `  ${text}`)
    .join("\n");
}
