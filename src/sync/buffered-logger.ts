import type { LogEntry, Logger, SourceLocation } from "../logger.ts";

/**
 * Collects one spec's log lines while specs run concurrently, so that each spec's lines can be
 * written together in one collapsible group instead of interleaved with the others.
 */
export class BufferedLogger implements Logger {
  private readonly entries: LogEntry[] = [];

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
  async group<T>(title: string, body: () => Promise<T>): Promise<T> {
    this.entries.push({ level: "info", message: title });
    return body();
  }

  /** Writes the collected lines into `target` as one group titled `title`. */
  async flushInto(target: Logger, title: string): Promise<void> {
    await target.group(title, async () => {
      for (const entry of this.entries) replay(target, entry);
    });
    this.entries.length = 0;
  }
}

function replay(target: Logger, { level, message, location }: LogEntry): void {
  if (level === "debug") target.debug(message);
  else if (level === "notice") target.notice(message, location);
  else if (level === "warning") target.warning(message, location);
  else if (level === "error") target.error(message, location);
  else target.info(message);
}
