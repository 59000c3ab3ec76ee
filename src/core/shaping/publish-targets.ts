/**
 * A run's publications: one per spec file, or one per audience of a file, each with the shaping steps it
 * gets (./audiences.ts applies them). Apart from the steps' code, so that a run that shapes nothing loads
 * neither overlays nor their JSONPath and pattern engines.
 */

/** What is done to one publication of a file's document. */
export interface ShapingSteps {
  /** Workspace-relative overlay files, applied in order. */
  readonly overlays: readonly string[];
  readonly removeInternal: boolean;
}

export interface AudienceEntry extends ShapingSteps {
  /** `[a-z0-9-]+`: names the audience in messages and derives its slug. */
  readonly name: string;
  /** Published under this slug as written; default: the file's slug, `-`, the audience's name. */
  readonly slug?: string;
}

/** A spec file's entry: its own steps (applied to every audience first), and its audiences, if any. */
export interface SpecShaping extends ShapingSteps {
  readonly audiences: readonly AudienceEntry[];
}

/** Spec file (workspace-relative) → its shaping. */
export type ShapingConfig = ReadonlyMap<string, SpecShaping>;

/** One publication of a file: a file has one, or one per audience. */
export interface PublishTarget {
  file: string;
  /** The slug it is published under in this run (a review's preview slug in previews). */
  slug: string;
  /** The slug outside any review: where its published version lives. */
  baseSlug: string;
  audience?: string;
  /** Undefined: the file is published as it is (bundled). */
  steps?: ShapingSteps;
}

/** A shaping entry that cannot be used (a file not found, slugs colliding): stops the run. */
export class ShapingConfigError extends Error {
  override readonly name = "ShapingConfigError";
}

/** The steps of one publication: the spec's, then the audience's; undefined when there are none. */
export function stepsOf(spec: SpecShaping | undefined, audience?: AudienceEntry): ShapingSteps | undefined {
  if (!spec) return undefined;
  const overlays = [...spec.overlays, ...(audience?.overlays ?? [])];
  const removeInternal = spec.removeInternal || audience?.removeInternal === true;
  return overlays.length === 0 && !removeInternal ? undefined : { overlays, removeInternal };
}

/**
 * Every publication of the run's files, in path order (audiences in their declared order). `slugs` are
 * the files' slugs in this run and `baseSlugs` outside any review; `previewSlug` turns an audience's slug
 * into this run's. Throws {@link ShapingConfigError} for an entry naming no file of the run, and for two
 * publications sharing a slug.
 */
export function publishTargets(
  files: readonly string[],
  slugs: ReadonlyMap<string, string>,
  baseSlugs: ReadonlyMap<string, string>,
  shaping: ShapingConfig,
  options: { previewSlug?: ((slug: string) => string) | undefined; configName: string },
): PublishTarget[] {
  const known = new Set(files);
  const unknown = [...shaping.keys()].filter((file) => !known.has(file));
  if (unknown.length > 0) {
    throw new ShapingConfigError(
      `${options.configName} shapes ${unknown.map((file) => JSON.stringify(file)).join(", ")}, which ${unknown.length === 1 ? "is not a spec" : "are not specs"} this run publishes: check the path (relative to the workspace), or the files and exclude settings. Nothing was published, so that no spec goes out unshaped.`,
    );
  }
  const targets: PublishTarget[] = [];
  for (const file of files) {
    const slug = slugs.get(file) ?? "";
    const baseSlug = baseSlugs.get(file) ?? slug;
    const spec = shaping.get(file);
    if (!spec || spec.audiences.length === 0) {
      const steps = stepsOf(spec);
      targets.push({ file, slug, baseSlug, ...(steps ? { steps } : {}) });
      continue;
    }
    for (const audience of spec.audiences) {
      const base = audience.slug ?? `${baseSlug}-${audience.name}`;
      const steps = stepsOf(spec, audience);
      targets.push({
        file,
        slug: options.previewSlug ? options.previewSlug(base) : base,
        baseSlug: base,
        audience: audience.name,
        ...(steps ? { steps } : {}),
      });
    }
  }
  const bySlug = new Map<string, PublishTarget[]>();
  for (const target of targets) bySlug.set(target.slug, [...(bySlug.get(target.slug) ?? []), target]);
  const shared = [...bySlug].filter(([, sharing]) => sharing.length > 1 && sharing.some((t) => t.audience));
  if (shared.length > 0) {
    const lines = shared.map(
      ([slug, sharing]) => `'${slug}': ${sharing.map((t) => describeTarget(t)).join(" and ")}`,
    );
    throw new ShapingConfigError(
      `Audiences in ${options.configName} share slugs with other specs or audiences (a slug names one spec): ${lines.join("; ")}. Give each audience its own \`slug\`.`,
    );
  }
  return targets;
}

/** `api/openapi.yaml (audience public)`, or the file alone. */
export function describeTarget(target: Pick<PublishTarget, "file" | "audience">): string {
  return target.audience ? `${target.file} (audience ${target.audience})` : target.file;
}
