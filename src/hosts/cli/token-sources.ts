/**
 * The API token's sources, read before the arguments are parsed so that the output redacts the token
 * from every line. A module of its own, light (moved out of connection.ts): every
 * run reads the token's sources, `--version` and `--help` too, and they load no HTTP client.
 */
import { type FileHandle, open } from "node:fs/promises";
import { UsageError } from "./errors.ts";
import { TOKEN_SETTINGS } from "./flag-names.ts";
import type { Output } from "./output.ts";
import type { Env } from "./streams.ts";
import type { TokenSetting } from "./sync-settings.ts";

/** Token files larger than this are not token files: at most one byte more is ever read. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

type FileRead =
  | { kind: "text"; text: string }
  | { kind: "too-large" }
  | { kind: "error"; code: string | undefined };

/**
 * Reads at most {@link MAX_TOKEN_FILE_BYTES} + 1 bytes from the open file, whatever `stat` says: a
 * device (`/dev/zero`), a `/proc` file (size 0) or a file that grows are read no further. A pipe
 * (`--token-file <(pass show gitbook)`) is read like a file; a directory fails to read (EISDIR).
 */
async function readTokenFile(file: string): Promise<FileRead> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, "r");
    const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > MAX_TOKEN_FILE_BYTES) return { kind: "too-large" };
    return { kind: "text", text: buffer.subarray(0, filled).toString("utf8") };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { kind: "error", code: typeof code === "string" ? code : undefined };
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** Every `--token-file` value of the arguments (before `--`), in order. */
function tokenFilesIn(argv: readonly string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--token-file" && i + 1 < argv.length) files.push(argv[++i] as string);
    else if (arg.startsWith("--token-file=")) files.push(arg.slice("--token-file=".length));
  }
  return files.filter((file) => file !== "");
}

/**
 * The token's sources — `--token-file`, `GITBOOK_TOKEN_FILE`, `GITBOOK_TOKEN` — each read once per run.
 * {@link prime} reads them all before the arguments are parsed, so that the output's redactor knows the
 * token whatever its source before anything can be written: a usage error that echoes an argument
 * (`--mode <token>`) shows `[REDACTED]`. A file is read once (a pipe can be read only once), and its
 * problems are reported only when a command asks for the token, naming the flag or variable.
 */
export class TokenSources {
  readonly #env: Env;
  readonly #output: Output;
  readonly #files = new Map<string, Promise<FileRead>>();

  constructor(env: Env, output: Output) {
    this.#env = env;
    this.#output = output;
    const envToken = env.GITBOOK_TOKEN?.trim();
    if (envToken) output.addSecret(envToken);
  }

  /** Reads every token file the arguments or the environment name, and makes their tokens secrets. */
  async prime(argv: readonly string[]): Promise<void> {
    const files = [...tokenFilesIn(argv), this.#env.GITBOOK_TOKEN_FILE ?? ""].filter((file) => file);
    await Promise.all(files.map((file) => this.#read(file)));
  }

  /**
   * The token: `--token-file` (or `GITBOOK_TOKEN_FILE`), else `GITBOOK_TOKEN`. Undefined when none is
   * set; a file that cannot be read, is empty or is too large is a {@link UsageError} naming the flag.
   */
  async read(tokenFile: string | undefined): Promise<TokenSetting | undefined> {
    const setting = tokenFile ? "--token-file" : "GITBOOK_TOKEN_FILE";
    const file = tokenFile || this.#env.GITBOOK_TOKEN_FILE;
    if (file) {
      const read = await this.#read(file);
      if (read.kind === "too-large") {
        throw new UsageError(
          setting,
          `${JSON.stringify(file)} holds more than ${MAX_TOKEN_FILE_BYTES / 1024} KiB, more than a token file can (reading stopped there); write only the token to the file.`,
        );
      }
      if (read.kind === "error") {
        throw new UsageError(
          setting,
          `cannot read ${JSON.stringify(file)}${read.code === undefined ? "" : ` (${read.code})`}.`,
        );
      }
      const value = read.text.trim();
      if (value === "") throw new UsageError(setting, `${JSON.stringify(file)} is empty.`);
      return { value, setting };
    }
    const value = this.#env.GITBOOK_TOKEN?.trim();
    return value ? { value, setting: "GITBOOK_TOKEN" } : undefined;
  }

  /** The token, or a {@link UsageError} naming its two sources. */
  async require(tokenFile: string | undefined): Promise<TokenSetting> {
    const token = await this.read(tokenFile);
    if (token === undefined) {
      throw new UsageError(
        TOKEN_SETTINGS,
        "no GitBook API token. Set the GITBOOK_TOKEN variable, or write the token to a file and pass --token-file PATH (the token is never taken from a flag's value).",
      );
    }
    return token;
  }

  #read(file: string): Promise<FileRead> {
    let read = this.#files.get(file);
    if (read === undefined) {
      read = readTokenFile(file).then((result) => {
        if (result.kind === "text" && result.text.trim() !== "") this.#output.addSecret(result.text.trim());
        return result;
      });
      this.#files.set(file, read);
    }
    return read;
  }
}
