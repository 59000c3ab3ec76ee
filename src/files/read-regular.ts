/**
 * The one way a workspace file is read: regular files only, never more than a limit. A FIFO, socket or
 * device named like a spec, or reached through a `$ref`, would block a plain read forever or never end;
 * a 200 MB YAML file would exhaust memory while parsing. The file is opened without blocking (opening a
 * FIFO otherwise waits for a writer), and the opened handle is checked, so what is checked is what is read.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";

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

/** The bytes of the regular file at `path`, refusing other kinds of file and files over `maxBytes`. */
export function readRegularFile(path: string, options: { maxBytes: number; label: string }): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(options.label, kindOf(stats));
    if (stats.size > options.maxBytes)
      throw new FileTooLargeError(options.label, stats.size, options.maxBytes);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
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
