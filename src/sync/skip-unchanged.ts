import type { Spec } from "../client/types.ts";
import type { Logger } from "../logger.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { describeServiceError } from "./describe-error.ts";
import type { Clock, SpecService } from "./ports.ts";
import type { PreparedSpec } from "./prepared.ts";
import type { SpecResult } from "./result.ts";
import { resultOf } from "./spec-results.ts";
import { sameAsPublished, unreadableReason } from "./unchanged.ts";

/** The longest the check may read for one spec: past it, the spec is uploaded. */
export const UNCHANGED_READ_BUDGET_MS = 30_000;

/**
 * Whether GitBook already holds the text this spec would upload, processed without error: then the
 * `unchanged` result, with the existing version's id and links, and nothing is uploaded. Any doubt (not
 * found, unreadable, too big, too slow, another record or none) gives undefined: upload, as always. Reads
 * the spec (unless listed), then the content of its last version by id, so both describe the same
 * processing. The reads have their own budget, well inside the run's deadline, so a slow answer leaves
 * the upload its time.
 */
export async function unchangedResult(
  spec: PreparedSpec,
  options: {
    orgId: string;
    service: Pick<SpecService, "getSpec" | "getVersionContent">;
    logger: Logger;
    clock: Clock;
    /** The run's deadline (epoch ms). */
    deadline: number;
    /** The organization's specs by slug when they were listed beforehand; else the spec is read. */
    held?: ReadonlyMap<string, Spec> | undefined;
  },
): Promise<SpecResult | undefined> {
  const recorded = spec.recorded?.();
  if (!recorded?.record) return undefined;
  const { orgId, service, logger, clock } = options;
  const now = clock.now();
  const read = { deadline: now + Math.min(UNCHANGED_READ_BUDGET_MS, (options.deadline - now) / 3) };
  try {
    const published = options.held
      ? options.held.get(spec.slug)
      : await service.getSpec(orgId, spec.slug, read);
    if (!published) {
      logger.debug("Uploading: GitBook does not hold it yet.");
      return undefined;
    }
    const unreadable = unreadableReason(published);
    if (unreadable || !published.lastVersion) {
      logger.info(`Uploading: ${escapeUntrusted(unreadable ?? "GitBook holds no version of it yet")}.`);
      return undefined;
    }
    const content = await service.getVersionContent(orgId, spec.slug, published.lastVersion, read);
    const sameness = sameAsPublished(recorded.record, { spec: published, content });
    if (!sameness.same) {
      logger.info(`Uploading: ${escapeUntrusted(sameness.reason)}.`);
      return undefined;
    }
    logger.info(`Unchanged: GitBook's version ${published.lastVersion} holds this very text; not uploaded.`);
    const versionUrl = content.url ?? content.urls?.source;
    return {
      ...resultOf(spec),
      status: "unchanged",
      specId: published.id,
      versionId: published.lastVersion,
      ...(versionUrl ? { versionUrl } : {}),
      appUrl: published.urls.app,
    };
  } catch (error) {
    const { message } = describeServiceError(error);
    logger.info(`Uploading: what GitBook holds could not be read (${message}).`);
    return undefined;
  }
}
