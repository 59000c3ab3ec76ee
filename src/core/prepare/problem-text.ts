import type { SourceLocation } from "../logger.ts";

/**
 * A local problem's message holds no place: the logger (annotation, CLI line) writes its location once,
 * and {@link locatedMessage} writes it once where a problem is text (results, JUnit, the CLI's `bundle`).
 */

/** `file:line:col: message`. */
export function locatedMessage({ message, location }: { message: string; location: SourceLocation }): string {
  const { file, line, column } = location;
  const at = line === undefined ? "" : `:${line}${column === undefined ? "" : `:${column}`}`;
  return `${file}${at}: ${message}`;
}

/** A message without the `file:` or `file:line:col:` it starts with, when that is its own file. */
export function bareMessage(message: string, file: string): string {
  if (!message.startsWith(`${file}:`)) return message;
  return message.slice(file.length).replace(/^(:\d+(:\d+)?)?:\s*/, "");
}
