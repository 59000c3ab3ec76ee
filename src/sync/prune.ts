import type { Spec } from "../client/types.ts";
import type { Logger } from "../logger.ts";
import { slugify } from "../slugs/derive.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { describeServiceError, isNotFound } from "./describe-error.ts";
import type { SpecService } from "./ports.ts";
import type { SpecResult } from "./result.ts";

/** Lists every spec of an organization, through every page. */
export interface SpecLister {
  iterateSpecs(orgId: string, options?: { limit?: number }): AsyncIterable<Spec>;
}

export interface PruneOptions {
  orgId: string;
  /** The run's `slug-prefix`: only slugs under it are the repository's own. */
  prefix: string;
  /** Every slug this run has a file for, published or not: never pruned. */
  keep: ReadonlySet<string>;
  limit: number;
  /** Check mode: say what would be pruned, delete nothing. */
  dryRun: boolean;
  lister: SpecLister;
  service: Pick<SpecService, "deleteSpec">;
  logger: Logger;
  /** How messages name the limit setting. */
  limitSetting: string;
}

/** A preview of any pull or merge request: cleanup deletes those, pruning never does. */
const PREVIEW_SLUG = /-(?:pr|mr)-\d+$/;

/**
 * The published slugs the repository owns and no longer has: under its prefix (`<prefix>-…`), not one
 * of this run's slugs, not a preview. Ownership is never guessed beyond that.
 */
export function prunableSlugs(
  published: readonly string[],
  prefix: string,
  keep: ReadonlySet<string>,
): string[] {
  const owned = `${slugify(prefix)}-`;
  return published
    .filter((slug) => slug.startsWith(owned) && !keep.has(slug) && !PREVIEW_SLUG.test(slug))
    .sort();
}

/**
 * Deletes (or, in check mode, lists) the specs the repository removed. Above `limit` nothing is deleted
 * and each is reported failed with the reason, which fails the run. One result per spec.
 */
export async function pruneSpecs(options: PruneOptions): Promise<SpecResult[]> {
  const { logger } = options;
  let published: string[];
  try {
    published = [];
    for await (const spec of options.lister.iterateSpecs(options.orgId)) published.push(spec.slug);
  } catch (error) {
    const { code, message } = describeServiceError(error);
    logger.error(`Listing the organization's specs to prune failed: ${message}`);
    return [
      {
        file: "",
        slug: "",
        status: "failed",
        operation: "delete",
        errorCode: code,
        errors: [`Pruning: ${message}`],
      },
    ];
  }
  const slugs = prunableSlugs(published, options.prefix, options.keep);
  const base = { file: "", operation: "delete" as const };
  if (slugs.length > options.limit) {
    const reason = `${slugs.length} specs under '${slugify(options.prefix)}-' have no file any more, above ${options.limitSetting} (${options.limit}): nothing was pruned. Check the list; raise ${options.limitSetting} if they should all go.`;
    logger.error(`${reason}\n${slugs.map((slug) => `  ${escapeUntrusted(slug)}`).join("\n")}`);
    return slugs.map((slug) => ({
      ...base,
      slug,
      status: "failed",
      errorCode: "PRUNE_LIMIT",
      errors: [reason],
    }));
  }
  logger.group(
    `Prune${options.dryRun ? " (check)" : ""}: ${slugs.length} spec${slugs.length === 1 ? "" : "s"} removed from the repository`,
    () => {
      for (const slug of slugs) logger.info(escapeUntrusted(slug));
    },
  );
  if (options.dryRun) {
    return slugs.map((slug) => ({
      ...base,
      slug,
      status: "planned",
      errors: ["Would be pruned: its file is gone."],
    }));
  }
  return Promise.all(
    slugs.map(async (slug): Promise<SpecResult> => {
      try {
        await options.service.deleteSpec(options.orgId, slug);
        return { ...base, slug, status: "deleted", errors: [] };
      } catch (error) {
        if (isNotFound(error)) return { ...base, slug, status: "deleted", errors: [] };
        const { code, message } = describeServiceError(error);
        logger.error(`Pruning '${slug}' failed: ${message}`);
        return { ...base, slug, status: "failed", errorCode: code, errors: [message] };
      }
    }),
  );
}
