/**
 * What every command that calls GitBook needs: the token (only from `GITBOOK_TOKEN` or `--token-file`,
 * never a flag's value, so that it stays out of shell history and process lists), the API URL and the
 * organization, checked by the action's own rules (`readConfig`), and the client.
 */
import { connectGitBook, type GitBookClient } from "../../adapters/gitbook/index.ts";
import { readConfig } from "../../settings/inputs.ts";
import { UsageError } from "./errors.ts";
import { checkInputs } from "./input-errors.ts";
import type { Env } from "./streams.ts";
import { createInputReader, type SyncFlags, type TokenSetting } from "./sync-inputs.ts";
import { CLI_USER_AGENT } from "./version.ts";

/** Flags shared by the commands that call GitBook. */
export interface ConnectionFlags {
  organization?: string;
  apiUrl?: string;
  tokenFile?: string;
}

export interface Connection {
  apiUrl: string;
  /** Set when the command asked for an organization. */
  organization: string | undefined;
}

/**
 * The API URL and, if `needsOrganization`, the organization id, from flags then variables, checked by
 * the action's own input rules (plain http only on loopback, an organization id that fits in a path);
 * a value that holds the token is refused by the name of its flag or variable.
 */
export function resolveConnection(
  flags: ConnectionFlags,
  env: Env,
  needsOrganization: boolean,
  token?: TokenSetting,
): Connection {
  const syncFlags: SyncFlags = { apiUrl: flags.apiUrl, organization: flags.organization };
  const inputs = createInputReader(
    syncFlags,
    needsOrganization ? env : { GITBOOK_API_URL: env.GITBOOK_API_URL },
    token,
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

/** The CLI's client (its user agent); for a run, bounded by its deadline as {@link connectGitBook} says. */
export function createClient(
  apiUrl: string,
  token: string,
  run?: Parameters<typeof connectGitBook>[1],
): GitBookClient {
  return connectGitBook({ token, apiUrl, userAgent: CLI_USER_AGENT }, run);
}
