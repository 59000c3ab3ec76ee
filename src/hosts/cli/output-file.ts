/**
 * The files a flag names for the CLI to write (`bundle -o`, `sync --junit`): a regular file or a new
 * path, nothing else. A FIFO would block the command until something reads it (for ever, in CI), a
 * device such as /dev/full swallows or refuses the text, a directory cannot be written at all. The
 * path is checked before the command's work ({@link checkOutputFile}), and again on the file opened
 * for writing ({@link writeOutputFile}), which never waits on a FIFO: it is opened non-blocking.
 */
import { constants, type Stats, statSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "./errors.ts";
import { printable, writeFailure } from "./output.ts";

/** A write that failed: exit code 1, one line naming the output. */
export class OutputWriteError extends Error {
  override readonly name = "OutputWriteError";
}

/** Refuses a path that exists and is not a regular file (a FIFO, a device, a directory, a socket). */
export function checkOutputFile(setting: string, file: string): void {
  let found: Stats;
  try {
    found = statSync(file);
  } catch {
    // A new path, or one that cannot be looked at: writing it says what is wrong, if anything is.
    return;
  }
  if (!found.isFile()) throw notRegular(setting, file, found);
}

/**
 * Writes `text` to `file`, created (with its folders) or truncated; refuses what is not a regular file.
 * Every failure, the folders' included, names `setting`.
 */
export async function writeOutputFile(setting: string, file: string, text: string): Promise<void> {
  // O_NONBLOCK: opening a FIFO with no reader fails at once (ENXIO) rather than waiting for one; a
  // regular file ignores it. Windows has neither FIFOs nor the flag.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NONBLOCK ?? 0);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    handle = await open(file, flags, 0o666);
    const found = await handle.stat();
    if (!found.isFile()) throw notRegular(setting, file, found);
    await handle.writeFile(text);
    await handle.close();
    handle = undefined;
  } catch (error) {
    await handle?.close().catch(() => {});
    if (error instanceof UsageError) throw error;
    if (
      (error as NodeJS.ErrnoException).code === "ENXIO" ||
      (error as NodeJS.ErrnoException).code === "EISDIR"
    ) {
      checkOutputFile(setting, file);
    }
    throw new OutputWriteError(`${setting}: cannot write ${printable(file)}: ${writeFailure(error)}.`);
  }
}

function notRegular(setting: string, file: string, found: Stats): UsageError {
  return new UsageError(
    setting,
    `${printable(file)} is ${kindOf(found)}, not a regular file: name a regular file or a new path.`,
  );
}

function kindOf(found: Stats): string {
  if (found.isDirectory()) return "a directory";
  if (found.isFIFO()) return "a named pipe (FIFO)";
  if (found.isCharacterDevice() || found.isBlockDevice()) return "a device";
  if (found.isSocket()) return "a socket";
  return "neither a file nor a folder";
}
