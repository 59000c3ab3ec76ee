/** The line (from 1) of the first line of `text` that is exactly `line`, at or after line `after` + 1. */
export function lineOf(text: string, line: string, after = 0): number {
  const index = text.split("\n").indexOf(line, after);
  if (index < 0) throw new Error(`no line ${JSON.stringify(line)}`);
  return index + 1;
}
