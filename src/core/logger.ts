import { defuseCommands, defuseSingleLine } from "./text/log-protocol.ts";
import type { Redact } from "./text/redact.ts";

/** Where a problem is in a file, for GitHub annotations. Lines and columns start at 1. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

/**
 * The narrow logging interface every module receives. The action backs it with `@actions/core`
 * (annotations, groups); tests use {@link MemoryLogger} and assert on what a user would read.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  notice(message: string, location?: SourceLocation): void;
  warning(message: string, location?: SourceLocation): void;
  error(message: string, location?: SourceLocation): void;
  /**
   * Writes what `body` logs as one collapsible group. `body` is synchronous on purpose: nothing else can
   * write while it runs, so groups never nest or interleave, whatever runs concurrently.
   */
  group(title: string, body: () => void): void;
}

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "group" | "endgroup";

export interface LogEntry {
  level: LogLevel;
  message: string;
  location?: SourceLocation;
}

/** Records every line; for tests and for rendering logs in benchmarks. */
export class MemoryLogger implements Logger {
  readonly entries: LogEntry[] = [];

  debug(message: string): void {
    this.entries.push({ level: "debug", message });
  }
  info(message: string): void {
    this.entries.push({ level: "info", message });
  }
  notice(message: string, location?: SourceLocation): void {
    this.entries.push({ level: "notice", message, ...(location ? { location } : {}) });
  }
  warning(message: string, location?: SourceLocation): void {
    this.entries.push({ level: "warning", message, ...(location ? { location } : {}) });
  }
  error(message: string, location?: SourceLocation): void {
    this.entries.push({ level: "error", message, ...(location ? { location } : {}) });
  }
  group(title: string, body: () => void): void {
    this.entries.push({ level: "group", message: title });
    body();
    this.entries.push({ level: "endgroup", message: title });
  }

  messages(level?: LogLevel): string[] {
    return this.entries.filter((e) => level === undefined || e.level === level).map((e) => e.message);
  }
}

/** A logger that drops everything, for benchmarks and library callers that do not log. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  notice() {},
  warning() {},
  error() {},
  group: (_title, body) => body(),
};

/**
 * The logger the action writes through: every message, group title and annotation file has the
 * secrets redacted (`redact`) and is defused for the runner's log protocol, so that no line it writes
 * can be read as a workflow command that the action did not issue. Our own multi-line messages keep
 * their lines; group titles and file properties stay on one line.
 */
export function guardedLogger(inner: Logger, redact: Redact): Logger {
  const text = (message: string) => defuseCommands(redact(message));
  const where = (location: SourceLocation | undefined) =>
    location ? { ...location, file: defuseSingleLine(redact(location.file)) } : undefined;
  return {
    debug: (message) => inner.debug(text(message)),
    info: (message) => inner.info(text(message)),
    notice: (message, location) => inner.notice(text(message), where(location)),
    warning: (message, location) => inner.warning(text(message), where(location)),
    error: (message, location) => inner.error(text(message), where(location)),
    group: (title, body) => inner.group(defuseSingleLine(redact(title)), body),
  };
}

/** `inner` without its warnings: for a second pass over what already warned once. */
export function withoutWarnings(inner: Logger): Logger {
  return {
    debug: (message) => inner.debug(message),
    info: (message) => inner.info(message),
    notice: (message, location) => inner.notice(message, location),
    warning: () => {},
    error: (message, location) => inner.error(message, location),
    group: (title, body) => inner.group(title, body),
  };
}
