import type { OrganizationRef } from "../plan/run-settings.ts";
import type { SettingNames } from "../plan/settings.ts";
import type { OrganizationDirectory } from "../ports.ts";

/** No single organization matches the `organization-domain` input. */
export class OrganizationLookupError extends Error {
  override readonly name: string = "OrganizationLookupError";
}

/**
 * GitBook knows no such organization that the token can see: the service refused it, as it refuses a
 * token (the CLI's exit code 3), not a malformed setting.
 */
export class UnknownOrganizationError extends OrganizationLookupError {
  override readonly name = "UnknownOrganizationError";
}

/** The organization id to publish to: given as is, or the one organization of an email domain. */
export async function resolveOrganizationId(
  ref: OrganizationRef,
  directory: OrganizationDirectory,
  names: SettingNames = (setting) => `'${setting}'`,
): Promise<string> {
  const domainSetting = capitalize(names("organization-domain"));
  if (ref.kind === "id") return ref.id;
  const organizations = await directory.listOrganizationsByEmailDomain(ref.domain);
  const [only] = organizations;
  if (organizations.length === 1 && only) return only.id;
  if (organizations.length === 0) {
    throw new UnknownOrganizationError(
      `${domainSetting}: no organization the token can see has the email domain "${ref.domain}". Check the domain, or set ${names("organization")} to the organization id.`,
    );
  }
  const candidates = organizations.map((org) => `${org.id} (${org.title})`).join(", ");
  throw new OrganizationLookupError(
    `${domainSetting}: "${ref.domain}" matches ${organizations.length} organizations: ${candidates}. Set ${names("organization")} to one of these ids instead.`,
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
