/**
 * Where the CLI writes. Everything written — stdout, stderr, `--json`, and the JUnit file through
 * {@link Output.redact} — goes through one {@link Redactor} that knows the token from every source
 * (`GITBOOK_TOKEN`, `--token-file`, `GITBOOK_TOKEN_FILE`, all read before the arguments are parsed, see
 * `TokenSources`), so that no message, help text or echoed argument can print it. Redaction happens
 * here, at the sink: the data a run works with (slugs, ids) is never redacted.
 */
import type { RetryPolicy } from "../../adapters/gitbook/index.ts";
import type { Clock, SyncPorts } from "../../core/ports.ts";
import { jsonChunks } from "../../core/text/json-pieces.ts";
import { defuseCommands } from "../../core/text/log-protocol.ts";
import { Redactor } from "../../core/text/redact.ts";
import { escapeUnprintable } from "../../core/text/unprintable.ts";
import type { SignalSource } from "./signals.ts";
import type { Env, Stream } from "./streams.ts";
import { type Palette, paletteOf, type TerminalManners, terminalManners } from "./terminal.ts";

export interface CliIo {
  readonly env: Env;
  readonly cwd: string;
  readonly stdout: Stream;
  readonly stderr: Stream;
  /** SIGINT and SIGTERM, for `sync` to stop cleanly; none in process (tests), the process's in main.ts. */
  readonly signals?: SignalSource;
  /** The sync's waits, for tests in this process: the clock, polling and retry delays; else the defaults. */
  readonly timing?: SyncTiming;
}

export interface SyncTiming {
  readonly clock?: Clock;
  readonly polling?: SyncPorts["polling"];
  readonly retry?: Partial<RetryPolicy>;
}

export class Output {
  readonly #io: CliIo;
  readonly #redactor = new Redactor();

  constructor(io: CliIo) {
    this.#io = io;
  }

  /** Whether stdout is a terminal (a person reads it) rather than a pipe or a file. */
  get isTerminal(): boolean {
    return this.#io.stdout.isTTY === true;
  }

  /** Colours and the live line on stderr, where the log goes (see terminal.ts). */
  get errorManners(): TerminalManners {
    return terminalManners(this.#io.env, this.#io.stderr);
  }

  /** The colours of what is written to stderr: none unless {@link errorManners} allows them. */
  get errorPalette(): Palette {
    return paletteOf(this.errorManners.colors);
  }

  /** Width of the terminal; undefined when stdout is not one. */
  get columns(): number | undefined {
    return this.isTerminal ? this.#io.stdout.columns : undefined;
  }

  addSecret(secret: string): void {
    this.#redactor.add(secret);
  }

  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  out(text: string): void {
    this.#io.stdout.write(this.redact(text));
  }

  err(text: string): void {
    this.#io.stderr.write(this.redact(text));
  }

  /**
   * `value` as `JSON.stringify(value, null, 2)` and a line break, written in pieces (a review's can be
   * 10+ MB), each once stdout has taken the one before: a slow reader does not make them pile up here.
   */
  async json(value: unknown): Promise<void> {
    await this.outChunks(jsonChunks(value));
    this.out("\n");
  }

  /** `chunks` on stdout, each once stdout has taken the one before (as {@link json}). */
  async outChunks(chunks: Iterable<string>): Promise<void> {
    const { stdout } = this.#io;
    for (const chunk of chunks) {
      this.out(chunk);
      if (stdout.drained) await stdout.drained();
    }
  }

  /**
   * Once everything written has ended: the line that says which output could not be written and why
   * (`cannot write to stdout: no space left on device (ENOSPC)`), said on stderr when stderr still
   * works; undefined when every write went through.
   */
  async writeFailure(): Promise<string | undefined> {
    const stdout = await this.#io.stdout.settled?.();
    const stderr = await this.#io.stderr.settled?.();
    const failed = stdout
      ? (["stdout", stdout] as const)
      : stderr
        ? (["stderr", stderr] as const)
        : undefined;
    if (failed === undefined) return undefined;
    const line = `cannot write to ${failed[0]}: ${writeFailure(failed[1])}.`;
    if (!stderr) this.err(`gitbook-openapi: error: ${line}\n`);
    return line;
  }
}

/** Text from outside made safe for a terminal (src/core/text/unprintable.ts); line breaks kept when `multiline`. */
export function printable(value: string, multiline = false): string {
  return escapeUnprintable(value, multiline);
}

/**
 * One line of text from outside, ended: {@link printable}, and a line a CI log would read as a command
 * (`::error::` at its start, `##[` anywhere: a file or property name can spell one) defused.
 */
export function printableLine(value: string): string {
  return `${defuseCommands(printable(value))}\n`;
}

/** Why a write failed, in words, with the system's code: `no space left on device (ENOSPC)`. */
export function writeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const words = code === undefined ? undefined : REASONS[code];
  if (words !== undefined) return `${words} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return printable(message);
}

const REASONS: Record<string, string> = {
  ENOSPC: "no space left on device",
  EPIPE: "the reading end of the pipe was closed",
  EFBIG: "the file is too large for this system or its limits",
  EDQUOT: "the disk quota is exceeded",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOENT: "its folder does not exist",
  ENOTDIR: "a part of its path is not a folder",
  // What creating its folders meets where a part of the path is a file.
  EEXIST: "a part of its path is a file, not a folder",
  EIO: "input/output error",
  ERR_STREAM_DESTROYED: "the stream was already closed",
};
