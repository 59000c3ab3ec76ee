/**
 * What every command that calls GitBook needs: the token (only from `GITBOOK_TOKEN` or `--token-file`,
 * never a flag's value, so that it stays out of shell history and process lists), the API URL and the
 * organization, checked by the action's own rules (`readConfig`), and the client.
 */
import { readFile } from "node:fs/promises";
import { GitBookClient } from "../client/index.ts";
import { InputError } from "../config/errors.ts";
import { readConfig } from "../config/inputs.ts";
import { UsageError } from "./errors.ts";
import type { Env, Output } from "./output.ts";
import { createInputReader, type SyncFlags, TOKEN_SETTINGS, type TokenSetting } from "./sync-settings.ts";
import { CLI_USER_AGENT } from "./version.ts";

/** Flags shared by the commands that call GitBook. */
export interface ConnectionFlags {
  organization?: string;
  apiUrl?: string;
  tokenFile?: string;
}

/** Token files larger than this are not token files. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * Reads the token: `--token-file` (or `GITBOOK_TOKEN_FILE`), else `GITBOOK_TOKEN`. The token is added
 * to the output's redactor before it is returned. Undefined when none is set; a file that cannot be
 * read or is empty is a {@link UsageError} naming the flag.
 */
export async function readToken(
  tokenFile: string | undefined,
  env: Env,
  output: Output,
): Promise<TokenSetting | undefined> {
  const fileSetting = tokenFile ? "--token-file" : "GITBOOK_TOKEN_FILE";
  const file = tokenFile || env.GITBOOK_TOKEN_FILE;
  if (file) {
    let text: string;
    try {
      const buffer = await readFile(file);
      if (buffer.length > MAX_TOKEN_FILE_BYTES) {
        throw new UsageError(fileSetting, `${JSON.stringify(file)} is larger than a token file can be.`);
      }
      text = buffer.toString("utf8");
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as { code?: unknown }).code;
      throw new UsageError(
        fileSetting,
        `cannot read ${JSON.stringify(file)}${typeof code === "string" ? ` (${code})` : ""}.`,
      );
    }
    const value = text.trim();
    output.addSecret(value);
    if (value === "") throw new UsageError(fileSetting, `${JSON.stringify(file)} is empty.`);
    return { value, setting: fileSetting };
  }
  const value = env.GITBOOK_TOKEN?.trim();
  if (!value) return undefined;
  output.addSecret(value);
  return { value, setting: "GITBOOK_TOKEN" };
}

export async function requireToken(tokenFile: string | undefined, env: Env, output: Output): Promise<string> {
  const token = await readToken(tokenFile, env, output);
  if (token === undefined) {
    throw new UsageError(
      TOKEN_SETTINGS,
      "no GitBook API token. Set the GITBOOK_TOKEN variable, or write the token to a file and pass --token-file PATH (the token is never taken from a flag's value).",
    );
  }
  return token.value;
}

export interface Connection {
  apiUrl: string;
  /** Set when the command asked for an organization. */
  organization: string | undefined;
}

/**
 * The API URL and, if `needsOrganization`, the organization id, from flags then variables, checked by
 * the action's own input rules (plain http only on loopback, an organization id that fits in a path).
 */
export function resolveConnection(flags: ConnectionFlags, env: Env, needsOrganization: boolean): Connection {
  const syncFlags: SyncFlags = { apiUrl: flags.apiUrl, organization: flags.organization };
  const inputs = createInputReader(
    syncFlags,
    needsOrganization ? env : { GITBOOK_API_URL: env.GITBOOK_API_URL },
  );
  const readInput = (name: string) => {
    if (name === "mode") return "check";
    if (name === "api-url" || name === "organization") return inputs.readInput(name);
    return "";
  };
  const config = checkInputs(() => readConfig(readInput), inputs.settingName);
  const organization = config.organization?.kind === "id" ? config.organization.id : undefined;
  if (needsOrganization && organization === undefined) {
    throw new UsageError(
      "--organization",
      "missing. Pass the organization id with --organization/-o ID or the GITBOOK_ORGANIZATION variable (`gitbook-openapi orgs --email-domain example.com` lists the organizations of a domain).",
    );
  }
  return { apiUrl: config.apiUrl, organization };
}

/** Runs `read`, turning the action's input errors into usage errors that name the flag or variable. */
export function checkInputs<T>(read: () => T, settingName: (input: string) => string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError) throw usageErrorOf(error, settingName);
    throw error;
  }
}

/**
 * An action input error as the CLI user should read it: "Input 'slug-prefix': …" becomes
 * "--slug-prefix: …", and other inputs the message quotes ('organization') become their flags.
 */
export function usageErrorOf(error: InputError, settingName: (input: string) => string): UsageError {
  const prefix = `Input '${error.input}': `;
  const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const known = new Set([
    "organization",
    "organization-domain",
    "files",
    "slugs",
    "slug-prefix",
    "api-url",
    "token",
    "prune",
    "prune-limit",
  ]);
  const rewritten = detail.replace(/'([a-z-]+)'/g, (whole, name: string) =>
    known.has(name) ? settingName(name) : whole,
  );
  return new UsageError(settingName(error.input), rewritten);
}

export function createClient(apiUrl: string, token: string): GitBookClient {
  return new GitBookClient({ token, baseUrl: apiUrl, userAgent: CLI_USER_AGENT });
}
