/**
 * The runner reads the Action's output as commands (`::name::` at a line's start, `##[` anywhere): text
 * from outside must never start one. {@link escapeUntrusted} makes one piece inert and keeps it on one
 * line; {@link defuseCommands} is the host's net over every line. The protocol: docs/design/log-safety.md.
 */

/** Characters that end a line for the runner or for log viewers, and other control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[%\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029]/g;
/** A line that the runner would read as a v2 command: `::` after white space or invisible characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the runner trims these before looking for `::`
const LEADING_COMMAND = /^([\s\u0000-\u001f\u007f\u0085\u200b-\u200f\u2060\ufeff]*):(?=:)/;
/** The v1 command prefix, anywhere in a line. */
const V1_PREFIX = /##\[/g;
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * One piece of untrusted text, made inert for the runner's log protocol and kept on one line:
 * `%` → `%25`, `\r` → `%0D`, `\n` → `%0A` (as the runner escapes command data), other control
 * characters and Unicode line separators percent-encoded too; a leading `::` becomes `%3A:` and every
 * `##[` becomes `#%23[`. Because `%` is always encoded, the result reads back unambiguously.
 */
export function escapeUntrusted(text: string): string {
  return defuseLine(text.replace(CONTROL, (char) => percentEncode(char)));
}

/**
 * The host's net for a message it writes: each line (at `\r`, `\n` or `\r\n`) is kept, and a line that
 * the runner would take as a command is changed so that it is not (`::` at its start → `%3A:`,
 * `##[` → `#%23[`). Text that has no such line is returned as it is.
 */
export function defuseCommands(text: string): string {
  if (!mayHoldCommand(text)) return text;
  return text.split(LINE_BREAK).map(defuseLine).join("\n");
}

/** {@link defuseCommands} for text that must stay on one line (group titles, file properties). */
export function defuseSingleLine(text: string): string {
  return defuseLine(text.replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
}

function defuseLine(line: string): string {
  return line.replace(LEADING_COMMAND, "$1%3A").replace(V1_PREFIX, "#%23[");
}

function mayHoldCommand(text: string): boolean {
  return text.includes("::") || text.includes("##[");
}

function percentEncode(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, "0")}` : encodeURIComponent(char);
}
