import type { Env, Stream } from "./streams.ts";
/**
 * What the CLI may send to a stream besides plain text: colours and a line rewritten in place. Decided
 * once per stream from the environment, as other command-line tools decide it:
 *
 * - `FORCE_COLOR` set: colours at its level (`0`/`false` none; ``/`true`/`1` to `3` on, a larger number
 *   3, any other value on), whatever the stream is; as in Node's own `tty.getColorDepth()`, it wins over
 *   `NO_COLOR` (Node, though, reads a value it does not know, e.g. `yes` or `4`, as no colours);
 * - else `NO_COLOR` set to anything but "": no colours (https://no-color.org);
 * - else colours only on a terminal whose `TERM` is not `dumb`.
 *
 * The live progress line needs a terminal (not `dumb`) of known width; no setting forces it, so a pipe, a
 * file or a CI log never gets a `\r` or an erase sequence. Only four colours are used, each for a meaning
 * (failed red, published green, unchanged or skipped dim, warnings yellow): a few bytes of code, so no
 * library is bundled for them.
 */

export interface TerminalManners {
  /** SGR colour sequences may be written. */
  readonly colors: boolean;
  /** A live line may be kept: the stream is a terminal of this many columns (undefined: none). */
  readonly liveColumns: number | undefined;
}

export function terminalManners(env: Env, stream: Stream): TerminalManners {
  const tty = stream.isTTY === true;
  const dumb = env.TERM === "dumb";
  const columns = stream.columns;
  return {
    colors: colorLevel(env, tty && !dumb) > 0,
    liveColumns:
      tty && !dumb && typeof columns === "number" && Number.isFinite(columns) && columns > 1
        ? Math.floor(columns)
        : undefined,
  };
}

/** The colour level (0 none, 1 basic, 2 256 colours, 3 true colour) the environment asks for. */
export function colorLevel(env: Env, colorTerminal: boolean): 0 | 1 | 2 | 3 {
  const forced = env.FORCE_COLOR;
  if (forced !== undefined) {
    const value = forced.trim().toLowerCase();
    if (value === "" || value === "true") return 1;
    if (value === "false") return 0;
    if (/^\d+$/.test(value)) return Math.min(3, Number(value)) as 0 | 1 | 2 | 3;
    // An unknown value (e.g. `yes`) is read as asking for colours (Node would read it as none).
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return 0;
  return colorTerminal ? 1 : 0;
}

export type Paint = (text: string) => string;

export interface Palette {
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly dim: Paint;
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;

const plain: Paint = (text) => text;

export const COLORS: Palette = { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22) };
export const NO_COLORS: Palette = { red: plain, green: plain, yellow: plain, dim: plain };

export function paletteOf(colors: boolean): Palette {
  return colors ? COLORS : NO_COLORS;
}

/** How a spec's status is painted: failures red, success green, nothing done dim. */
export function statusPaint(palette: Palette, status: string): Paint {
  if (status === "failed" || status === "timed-out") return palette.red;
  if (status === "published" || status === "deleted") return palette.green;
  if (status === "cancelled") return palette.yellow;
  if (status === "unchanged" || status === "skipped") return palette.dim;
  return (text) => text;
}
