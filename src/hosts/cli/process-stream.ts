import type { Stream } from "./streams.ts";
/**
 * The process's stdout or stderr as the CLI writes them (output.ts `Stream`): a write that fails — a
 * closed pipe (EPIPE), a full disk or /dev/full (ENOSPC) — is kept, not thrown from an `error` event
 * as a crash with a stack trace, and nothing more is written to that stream; `settled()` says, once
 * every write has ended, whether one failed, so that the command exits 1 with one line naming it.
 */

export function processStream(stream: NodeJS.WriteStream): Stream {
  let failure: Error | undefined;
  const keep = (error: Error | null | undefined) => {
    if (error) failure ??= error;
  };
  stream.on("error", keep);
  return {
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
    write(text: string) {
      if (failure === undefined && !stream.destroyed) stream.write(text, keep);
    },
    drained: () =>
      new Promise((resolve) => {
        if (failure !== undefined || stream.destroyed || !stream.writableNeedDrain) return resolve();
        const done = () => {
          stream.off("drain", done).off("error", done).off("close", done);
          resolve();
        };
        stream.on("drain", done).on("error", done).on("close", done);
      }),
    settled: () =>
      new Promise((resolve) => {
        if (failure !== undefined || stream.destroyed) return resolve(failure);
        // Written in order: the callback of an empty write comes once every earlier write has ended.
        stream.write("", (error) => resolve(failure ?? error ?? undefined));
      }),
  };
}
