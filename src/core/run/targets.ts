import { type DiscoveryResult, discoverSpecs, type FileLister } from "../discovery/index.ts";
import { silentLogger } from "../logger.ts";
import type { SyncPlan } from "../plan/plan.ts";
import type { RunSettings } from "../plan/run-settings.ts";
import { assignRunSlugs, specFilesOf } from "../prepare/prepare.ts";
import { describeTarget, type PublishTarget, publishTargets } from "../shaping/publish-targets.ts";
import { DuplicateSlugError } from "../slugs/errors.ts";
import { type LiveSlug, refusePreviewFormLiveSlugs } from "../slugs/preview.ts";

/**
 * The run's publications (src/core/shaping/publish-targets.ts): one per file, or one per audience of a file
 * with audiences, each with its slug in this run and outside any review. Without shaping, one per file
 * with the file's slug. Throws `ShapingConfigError` (the run stops) for a shaping entry that names no
 * file of the run, and for audiences sharing a slug.
 */
export function runTargets(
  discovery: DiscoveryResult,
  paths: readonly string[],
  slugs: ReadonlyMap<string, string>,
  plan: SyncPlan,
): PublishTarget[] {
  const shaping = plan.shaping ?? new Map();
  const baseSlugs = plan.review === undefined ? slugs : slugsOutsideReview(discovery, plan);
  const targets = publishTargets(paths, slugs, baseSlugs, shaping, {
    previewSlug: plan.review?.previewSlug,
    configName: "The configuration file's `specs:`",
  });
  // Cleanup writes nothing live, and must still delete a review's previews.
  if (plan.mode !== "cleanup") refusePreviewFormLiveSlugs(targets.map((target) => liveSlug(target, plan)));
  return targets;
}

/** A publication's live slug, and what gave it. */
function liveSlug(target: PublishTarget, plan: SyncPlan): LiveSlug {
  const { file, baseSlug: slug, audience } = target;
  if (audience !== undefined) {
    const explicit = plan.shaping?.get(file)?.audiences.find((a) => a.name === audience)?.slug;
    const entry = `the configuration file's \`specs:\` entry, audience '${audience}'`;
    return { slug, file, source: explicit ? `its \`slug\` in ${entry}` : `derived from ${entry}'s name` };
  }
  if (plan.slugMapping.has(file)) return { slug, file, source: `set by ${plan.names("slugs")}` };
  const prefix = plan.slugPrefix === undefined ? "" : ` and ${plan.names("slug-prefix")}`;
  return { slug, file, source: `derived from the file's path${prefix}` };
}

/** The slugs files have outside any review, where their published versions live (colliding ones too). */
export function slugsOutsideReview(discovery: DiscoveryResult, plan: SyncPlan): ReadonlyMap<string, string> {
  try {
    return assignRunSlugs(discovery, {
      slugMapping: plan.slugMapping,
      slugPrefix: plan.slugPrefix,
      filePatterns: plan.files,
      repositoryName: plan.repositoryName,
      slugsSetting: plan.names("slugs"),
    });
  } catch (error) {
    return error instanceof DuplicateSlugError ? error.assigned : new Map();
  }
}

/** Each file's slugs, joined: what a publish record's file is published as now (pruning's evidence). */
export function slugsByFile(targets: readonly PublishTarget[]): Map<string, string> {
  const byFile = new Map<string, string>();
  for (const target of targets) {
    const known = byFile.get(target.file);
    byFile.set(target.file, known === undefined ? target.slug : `${known}', '${target.slug}`);
  }
  return byFile;
}

/** The plan's line for one publication. */
export function targetLine(target: PublishTarget): string {
  return `${describeTarget(target)} → ${target.slug}`;
}

/**
 * The slug a run publishes one file (or one audience of it) under outside any review, by the run's own
 * rule over the run's files: what `bundle` writes into the publish record it prints. "" when the run
 * would not publish it.
 */
export async function publicationSlug(
  settings: Pick<RunSettings, "files" | "exclude" | "slugMapping" | "slugPrefix" | "shaping">,
  where: { workspace: string; repositoryName: string; git: FileLister },
  file: string,
  audience: string | undefined,
): Promise<string> {
  try {
    const discovery = await discoverSpecs({
      workspace: where.workspace,
      git: where.git,
      ...(settings.files ? { patterns: settings.files } : {}),
      exclude: settings.exclude,
      logger: silentLogger,
    });
    let slugs: Map<string, string>;
    try {
      slugs = assignRunSlugs(discovery, {
        slugMapping: settings.slugMapping,
        slugPrefix: settings.slugPrefix,
        filePatterns: settings.files,
        repositoryName: where.repositoryName,
      });
    } catch (error) {
      if (!(error instanceof DuplicateSlugError)) throw error;
      slugs = new Map(error.assigned);
    }
    const paths = specFilesOf(discovery).map((spec) => spec.path);
    const targets = publishTargets(paths, slugs, slugs, settings.shaping ?? new Map(), { configName: "" });
    return targets.find((target) => target.file === file && target.audience === audience)?.slug ?? "";
  } catch {
    return "";
  }
}
