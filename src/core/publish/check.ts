import type { Logger } from "../logger.ts";
import type { SpecService } from "../ports.ts";
import type { PreparedSpec } from "../prepare/prepared.ts";
import type { SpecResult } from "../result.ts";
import { describeServiceError, isNotFound } from "../service/describe-error.ts";
import { isReadyToUpload, localFailure, resultOf } from "./spec-results.ts";

export interface CheckOptions {
  /** With a token: read-only lookups tell whether each slug would be created or updated. */
  lookup: { orgId: string; service: Pick<SpecService, "getSpec"> } | undefined;
  logger: Logger;
}

export async function checkOne(
  spec: PreparedSpec,
  lookup: CheckOptions["lookup"],
  logger: Logger,
): Promise<SpecResult> {
  if (!isReadyToUpload(spec)) return localFailure(spec, logger);
  const planned = { ...resultOf(spec), status: "planned" } as const;
  if (!lookup) {
    logger.info("Valid. No token given, so whether the slug would be created or updated is unknown.");
    return { ...planned, operation: "unknown" };
  }
  try {
    const existing = await lookup.service.getSpec(lookup.orgId, spec.slug);
    logger.info(`Valid. Would update spec '${spec.slug}' (id ${existing.id}).`);
    return { ...planned, operation: "update", specId: existing.id, appUrl: existing.urls.app };
  } catch (error) {
    if (isNotFound(error)) {
      logger.info(`Valid. Would create spec '${spec.slug}'.`);
      return { ...planned, operation: "create" };
    }
    const { code, message } = describeServiceError(error);
    logger.error(`Looking up '${spec.slug}' failed: ${message}`, { file: spec.file });
    return { ...resultOf(spec), status: "failed", errorCode: code, errors: [message] };
  }
}
