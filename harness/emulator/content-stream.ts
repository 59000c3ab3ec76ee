import type { ServerResponse } from "node:http";
import type { ContentFaults } from "./options.ts";

/** One reused mebibyte of spaces: padding of any size is streamed from it without allocating. */
const SPACES = Buffer.alloc(1024 * 1024, 0x20);
const STALL_AFTER_BYTES = 64 * 1024;
/** Longer waits than a timer can hold (about 24.8 days) are waits for ever. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Sends a successful version-content answer (`payload`, the JSON of an object) as `faults` asks:
 * delayed, padded with whitespace before its last `}` to `paddingBytes`, without `content-length`,
 * stalled after its first bytes, or trickled. `onHeaders` is called as the status line is written.
 * Returns when the body is sent or the connection closed.
 */
export async function sendContent(
  res: ServerResponse,
  payload: Buffer,
  faults: ContentFaults,
  onHeaders: () => void,
): Promise<void> {
  if (faults.delayMs !== undefined && faults.delayMs > 0 && !(await waitUnlessClosed(res, faults.delayMs))) {
    return;
  }
  const size = Math.max(faults.paddingBytes ?? 0, payload.length);
  onHeaders();
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    ...(faults.chunked ? {} : { "content-length": size }),
  });
  const { trickle, stallMs } = faults;
  let stallAt = stallMs === undefined ? undefined : Math.min(STALL_AFTER_BYTES, size - 1);
  let sent = 0;
  for (const piece of bodyPieces(payload, size)) {
    let rest = piece;
    while (rest.length > 0) {
      if (stallAt !== undefined && sent === stallAt) {
        stallAt = undefined;
        if (!(await waitUnlessClosed(res, stallMs ?? 0))) return;
      }
      let length = rest.length;
      if (stallAt !== undefined) length = Math.min(length, stallAt - sent);
      if (trickle !== undefined) length = Math.min(length, trickle.bytes);
      if (!(await write(res, rest.subarray(0, length)))) return;
      sent += length;
      rest = rest.subarray(length);
      if (trickle !== undefined && sent < size && !(await waitUnlessClosed(res, trickle.everyMs))) return;
    }
  }
  res.end();
}

/** The payload as pieces of a body of `size` bytes: all but its last byte, the padding, its last byte. */
function* bodyPieces(payload: Buffer, size: number): Generator<Buffer> {
  if (size <= payload.length) {
    yield payload;
    return;
  }
  yield payload.subarray(0, payload.length - 1);
  for (let left = size - payload.length; left > 0; left -= SPACES.length) {
    yield left >= SPACES.length ? SPACES : SPACES.subarray(0, left);
  }
  yield payload.subarray(payload.length - 1);
}

function isClosed(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

/** Resolves true after `ms` (never for `Infinity`), or false as soon as the connection closes. */
export function waitUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (isClosed(res)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = ms <= LONGEST_TIMER_MS ? setTimeout(() => finish(true), ms) : undefined;
    const onClose = (): void => finish(false);
    function finish(open: boolean): void {
      clearTimeout(timer);
      res.off("close", onClose);
      resolve(open);
    }
    res.once("close", onClose);
  });
}

/** Writes with back-pressure: resolves true once the chunk may be followed, false if the connection closed. */
function write(res: ServerResponse, chunk: Buffer): Promise<boolean> {
  if (isClosed(res)) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onDrain = (): void => finish(true);
    const onClose = (): void => finish(false);
    function finish(open: boolean): void {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(open);
    }
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}
