/**
 * The one way a workspace file is read: regular files only, never more than a limit. A FIFO, socket or
 * device named like a spec, or reached through a `$ref`, would block a plain read forever or never end;
 * a 200 MB YAML file would exhaust memory while parsing. The file is opened without blocking (opening a
 * FIFO otherwise waits for a writer), and the opened handle is checked, so what is checked is what is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/**
 * The largest spec file, and the largest bundled document, that is uploaded: 32 MiB. GitBook answers
 * 413 above some body size it does not publish; the emulator refuses bodies over 64 MiB, and a text sent
 * as a JSON string can grow up to twice its size through escaping. Larger specs are better fetched by
 * GitBook itself (`source: url`) or split.
 */
export const MAX_SPEC_BYTES = 32 * 1024 * 1024;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The path names a folder, FIFO, socket or device: only regular files are read. */
export class NotRegularFileError extends Error {
  override readonly name = "NotRegularFileError";
  readonly file: string;
  readonly kind: string;

  constructor(file: string, kind: string) {
    super(`${file} is ${kind}, not a regular file; only regular files are read.`);
    this.file = file;
    this.kind = kind;
  }
}

/** The file is larger than the limit; nothing of it was parsed. */
export class FileTooLargeError extends Error {
  override readonly name = "FileTooLargeError";
  readonly file: string;
  readonly bytes: number;
  readonly maxBytes: number;

  constructor(file: string, bytes: number, maxBytes: number) {
    super(
      `${file} is ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} limit for one spec; it is not read. ` +
        "Publish it with `source: url` (GitBook fetches the file itself) or split it into smaller specs.",
    );
    this.file = file;
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}

export interface ReadLimits {
  maxBytes: number;
  /** How errors name the file. */
  label: string;
}

/**
 * Files up to this size are read into one buffer kept for the next file: a run reads thousands of
 * files, and a new buffer for each would leave memory to the allocator's mercy between collections.
 */
const REUSED_BUFFER_BYTES = 4 * 1024 * 1024;
let reused = Buffer.allocUnsafe(0);

/**
 * Hands the bytes of the regular file at `path` to `use`, refusing other kinds of file and files over
 * `maxBytes`. The bytes are only valid during the call (the buffer serves the next file), unless `owned`
 * says they are in a buffer of their own (a file over {@link REUSED_BUFFER_BYTES}): `use` copies what
 * it keeps of bytes it does not own, as decoding to a string does.
 */
export function withRegularFile<T>(
  path: string,
  limits: ReadLimits,
  use: (bytes: Buffer, owned: boolean) => T,
): T {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(limits.label, kindOf(stats));
    if (stats.size > limits.maxBytes) throw new FileTooLargeError(limits.label, stats.size, limits.maxBytes);
    const bytes = readAll(fd, stats.size, limits);
    return use(bytes, bytes.buffer !== reused.buffer);
  } finally {
    closeSync(fd);
  }
}

/** The text of the regular file at `path`, read as UTF-8, under the same rules as {@link withRegularFile}. */
export function readRegularText(path: string, limits: ReadLimits): string {
  return withRegularFile(path, limits, (bytes) => bytes.toString("utf8"));
}

/** Reads to the end, which may lie past the size `fstat` gave if the file grows meanwhile. */
function readAll(fd: number, expectedSize: number, limits: ReadLimits): Buffer {
  // One byte past the limit is read at most: it tells that the file is over it.
  const cap = limits.maxBytes + 1;
  let buffer = bufferFor(Math.min(expectedSize + 1, cap));
  let length = 0;
  for (;;) {
    const room = Math.min(buffer.length, cap) - length;
    if (room === 0) {
      if (length === cap) throw new FileTooLargeError(limits.label, length, limits.maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(length * 2, cap));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
      continue;
    }
    const read = readSync(fd, buffer, length, room, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
}

function bufferFor(bytes: number): Buffer {
  if (bytes > REUSED_BUFFER_BYTES) return Buffer.allocUnsafe(bytes);
  if (reused.length < bytes) reused = Buffer.allocUnsafe(Math.max(bytes, 64 * 1024));
  return reused;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
