import type { Logger } from "../logger.ts";
import { BufferedLogger } from "./buffered-logger.ts";
import { describeServiceError } from "./describe-error.ts";
import type { SpecService } from "./ports.ts";
import type { PreparedSpec } from "./prepared.ts";
import type { SpecOperation, SpecResult } from "./result.ts";

export interface CheckOptions {
  /** With a token: read-only lookups tell whether each slug would be created or updated. */
  lookup: { orgId: string; service: Pick<SpecService, "getSpec"> } | undefined;
  logger: Logger;
}

/** `check` mode: reports what a publish would do, writing nothing. */
export async function checkAll(specs: readonly PreparedSpec[], options: CheckOptions): Promise<SpecResult[]> {
  return Promise.all(
    specs.map(async (spec) => {
      const log = new BufferedLogger();
      const result = await checkOne(spec, options.lookup, log);
      await log.flushInto(options.logger, `${spec.file} → ${spec.slug}: ${result.status}`);
      return result;
    }),
  );
}

async function checkOne(
  spec: PreparedSpec,
  lookup: CheckOptions["lookup"],
  logger: Logger,
): Promise<SpecResult> {
  const base = {
    file: spec.file,
    slug: spec.slug,
    ...(spec.specVersion !== undefined ? { specVersion: spec.specVersion } : {}),
  };
  if (spec.problems.length > 0) {
    for (const problem of spec.problems) logger.error(problem.message, problem.location);
    return {
      ...base,
      status: "failed",
      errorCode: spec.problems[0]?.code,
      errors: spec.problems.map((p) => p.message),
    };
  }
  if (!lookup) {
    logger.info("Valid. No token given, so whether the slug would be created or updated is unknown.");
    return { ...base, status: "planned", operation: "unknown", errors: [] };
  }
  try {
    const existing = await lookup.service.getSpec(lookup.orgId, spec.slug);
    logger.info(`Valid. Would update spec '${spec.slug}' (id ${existing.id}).`);
    return {
      ...base,
      status: "planned",
      operation: "update",
      specId: existing.id,
      appUrl: existing.urls.app,
      errors: [],
    };
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) {
      logger.info(`Valid. Would create spec '${spec.slug}'.`);
      return { ...base, status: "planned", operation: "create" satisfies SpecOperation, errors: [] };
    }
    const { code, message } = describeServiceError(error);
    logger.error(`Looking up '${spec.slug}' failed: ${message}`, { file: spec.file });
    return { ...base, status: "failed", errorCode: code, errors: [message] };
  }
}
