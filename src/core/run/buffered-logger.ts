import type { LogEntry, Logger } from "../logger.ts";
import { MemoryLogger } from "../logger.ts";

/**
 * Collects one spec's log lines while specs run concurrently, so that each spec's lines can be
 * written together in one collapsible group instead of interleaved with the others.
 */
export class BufferedLogger extends MemoryLogger {
  /** Writes the collected lines into `target` as one group titled `title`. */
  flushInto(target: Logger, title: string): void {
    const entries = this.entries.splice(0);
    target.group(title, () => {
      for (const entry of entries) replay(target, entry);
    });
  }
}

function replay(target: Logger, { level, message, location }: LogEntry): void {
  if (level === "endgroup") return;
  if (level === "debug") target.debug(message);
  else if (level === "notice") target.notice(message, location);
  else if (level === "warning") target.warning(message, location);
  else if (level === "error") target.error(message, location);
  else target.info(message); // a nested group's title too: groups never nest
}
