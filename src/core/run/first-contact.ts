/**
 * The run's first request to GitBook, before any spec's work: the organization's specs, which the
 * unchanged check and pruning reuse. A problem that every later request would meet stops the run here,
 * said once, instead of once per spec: the service cannot be reached (the client fails fast before the
 * service has ever answered), refuses the token (401/403), or knows no such organization (404).
 * Anything else (a slow or failing listing) leaves each spec to read what it needs on its own.
 */

import type { Logger } from "../logger.ts";
import type { SettingNames } from "../plan/settings.ts";
import type { SpecLister } from "../ports.ts";
import { LIST_PAGE_LIMIT } from "../publish/state-reads.ts";
import { describeServiceError } from "../service/describe-error.ts";
import {
  AuthenticationError,
  GitBookConnectionError,
  NotFoundError,
  PermissionDeniedError,
} from "../service/errors.ts";
import type { Spec } from "../service/types.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { UnknownOrganizationError } from "./organization.ts";

/** Every spec of the organization, in as few pages as the service allows. */
export async function listAllSpecs(lister: SpecLister, orgId: string): Promise<Spec[]> {
  const specs: Spec[] = [];
  for await (const spec of lister.iterateSpecs(orgId, { limit: LIST_PAGE_LIMIT })) specs.push(spec);
  return specs;
}

/** The organization's specs by slug; undefined when the listing failed for a reason that does not stop the run. */
export async function firstContact(
  lister: SpecLister,
  orgId: string,
  names: SettingNames,
  logger: Logger,
): Promise<Map<string, Spec> | undefined> {
  try {
    return new Map((await listAllSpecs(lister, orgId)).map((spec) => [spec.slug, spec]));
  } catch (error) {
    if (
      error instanceof AuthenticationError ||
      error instanceof PermissionDeniedError ||
      error instanceof GitBookConnectionError
    )
      throw error;
    if (error instanceof NotFoundError)
      // Said once: the service's own words and the client's advice say the same as this sentence.
      throw new UnknownOrganizationError(
        `${names("organization")}: GitBook knows no organization "${escapeUntrusted(orgId)}" that this token can see (${error.method} ${escapeUntrusted(error.path)} answered ${error.status}). Check the organization id, or that the token belongs to a member of it.`,
      );
    logger.debug(
      `Listing the organization's specs failed (${describeServiceError(error).message}); each spec is read on its own.`,
    );
    return undefined;
  }
}
