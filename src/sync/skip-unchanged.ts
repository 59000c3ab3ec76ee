import type { Spec } from "../client/types.ts";
import type { Logger } from "../logger.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { describeServiceError } from "./describe-error.ts";
import type { SpecService } from "./ports.ts";
import type { PreparedSpec } from "./prepared.ts";
import type { SpecResult } from "./result.ts";
import { resultOf } from "./spec-results.ts";
import { sameAsPublished } from "./unchanged.ts";

/**
 * Whether {@link unchangedResult} may compare the spec published as `slug` with GitBook's version, so
 * that its parsed document is worth keeping: GitBook holds a version of it, or nobody listed what it holds.
 */
export function mayBeUnchanged(slug: string, held: ReadonlyMap<string, Spec> | undefined): boolean {
  return held === undefined || Boolean(held.get(slug)?.lastVersion);
}

/**
 * Whether GitBook already holds the document this spec would upload, processed without error: then
 * the `unchanged` result, with the existing version's id and links, and nothing is uploaded. Any doubt
 * (not found, unreadable, a difference, an unknown shape) gives undefined: upload, as always. Reads
 * the spec, then the content of its last version by id, so both describe the same processing.
 */
export async function unchangedResult(
  spec: PreparedSpec,
  options: {
    orgId: string;
    service: Pick<SpecService, "getSpec" | "getVersionContent">;
    logger: Logger;
    /** The organization's specs by slug when they were listed beforehand; else the spec is read. */
    held?: ReadonlyMap<string, Spec> | undefined;
  },
): Promise<SpecResult | undefined> {
  if (spec.document === undefined || !spec.source || !("text" in spec.source)) return undefined;
  const { orgId, service, logger } = options;
  try {
    const published = options.held ? options.held.get(spec.slug) : await service.getSpec(orgId, spec.slug);
    if (!published) {
      logger.debug("Uploading: GitBook does not hold it yet.");
      return undefined;
    }
    if (!published.lastVersion) {
      logger.info("Uploading: GitBook holds no version of it yet.");
      return undefined;
    }
    const content = await service.getVersionContent(orgId, spec.slug, published.lastVersion);
    const sameness = sameAsPublished(spec.document(), { spec: published, content });
    if (!sameness.same) {
      logger.info(`Uploading: ${escapeUntrusted(sameness.reason)}.`);
      return undefined;
    }
    logger.info(
      `Unchanged: GitBook's version ${published.lastVersion} holds this very document; not uploaded.`,
    );
    return {
      ...resultOf(spec),
      status: "unchanged",
      specId: published.id,
      versionId: published.lastVersion,
      appUrl: published.urls.app,
    };
  } catch (error) {
    const { message } = describeServiceError(error);
    logger.info(`Uploading: what GitBook holds could not be read (${message}).`);
    return undefined;
  }
}
