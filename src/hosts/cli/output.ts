/**
 * Where the CLI writes. Everything written — stdout, stderr, `--json`, and the JUnit file through
 * {@link Output.redact} — goes through one {@link Redactor} that knows the token from every source
 * (`GITBOOK_TOKEN`, `--token-file`, `GITBOOK_TOKEN_FILE`, all read before the arguments are parsed, see
 * `TokenSources`), so that no message, help text or echoed argument can print it. Redaction happens
 * here, at the sink: the data a run works with (slugs, ids) is never redacted.
 */
import { Redactor } from "../../core/text/redact.ts";
import type { SignalSource } from "./signals.ts";
import { type Palette, paletteOf, type TerminalManners, terminalManners } from "./terminal.ts";

/** The environment as the CLI sees it (`process.env` in production, a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Stream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly env: Env;
  readonly cwd: string;
  readonly stdout: Stream;
  readonly stderr: Stream;
  /** SIGINT and SIGTERM, for `sync` to stop cleanly; none in process (tests), the process's in main.ts. */
  readonly signals?: SignalSource;
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

  json(value: unknown): void {
    this.out(`${JSON.stringify(value, null, 2)}\n`);
  }
}

/**
 * Text from outside (the service's answers, file names) made safe for a terminal: control characters
 * (escape sequences could move the cursor or rewrite the screen), and the invisible ones that reorder or
 * hide text (bidirectional and zero-width controls, line separators; the set src/core/changes/text.ts
 * escapes), are shown as `\uXXXX`. Line breaks are kept only when `multiline`.
 */
export function printable(value: string, multiline = false): string {
  return value.replace(UNPRINTABLE, (char) =>
    multiline && char === "\n" ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
