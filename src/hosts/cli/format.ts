/**
 * Human-readable output: aligned tables and field lists. Every cell goes through {@link printable}.
 * On a terminal (`maxWidth` given), a table wider than the screen has its widest columns cut with `…`;
 * piped or redirected output is never cut.
 */
import { truncate } from "../../core/text/truncate.ts";
import { printable } from "./output.ts";

export type Cell = string | number | boolean | undefined | null;

const GAP = "  ";
/** A column is never cut narrower than this. */
const MIN_COLUMN = 10;

function cellText(cell: Cell): string {
  if (cell === undefined || cell === null || cell === "") return "-";
  return printable(String(cell));
}

export function renderTable(headers: readonly string[], rows: readonly Cell[][], maxWidth?: number): string {
  const table = [headers.map((h) => h.toUpperCase()), ...rows.map((row) => row.map(cellText))];
  const widths = headers.map((_, column) => Math.max(...table.map((row) => (row[column] ?? "").length)));
  if (maxWidth !== undefined) fitWidths(widths, maxWidth);
  return table
    .map((row) =>
      row
        .map((cell, column) => {
          const width = widths[column] ?? 0;
          const cut = truncate(cell, width);
          return column === row.length - 1 ? cut : cut.padEnd(width);
        })
        .join(GAP)
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}

/**
 * Narrows the last column (links, the least needed to tell rows apart) down to {@link MIN_COLUMN}, then
 * the widest ones, one character at a time, until the table fits or none can shrink.
 */
function fitWidths(widths: number[], maxWidth: number): void {
  const total = () => widths.reduce((sum, width) => sum + width, 0) + GAP.length * (widths.length - 1);
  const last = widths.length - 1;
  const lastWidth = widths[last] ?? 0;
  if (lastWidth > MIN_COLUMN)
    widths[last] = Math.max(MIN_COLUMN, lastWidth - Math.max(0, total() - maxWidth));
  while (total() > maxWidth) {
    let widest = -1;
    widths.forEach((width, index) => {
      if (width > MIN_COLUMN && (widest === -1 || width > (widths[widest] ?? 0))) widest = index;
    });
    if (widest === -1) return;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
}

/** `Label:  value` lines, labels aligned; absent values are left out. */
export function renderFields(fields: readonly [string, Cell][]): string {
  const present = fields.filter(([, value]) => value !== undefined && value !== null && value !== "");
  const width = Math.max(0, ...present.map(([label]) => label.length + 1));
  return present.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${cellText(value)}\n`).join("");
}
