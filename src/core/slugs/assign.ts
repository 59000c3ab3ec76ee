import { cutSlug, deriveSlug } from "./derive.ts";
import { DuplicateSlugError, type SlugCollision, type SlugFix, SlugInputError } from "./errors.ts";
import { formatExcludeLine } from "./exclusion.ts";
import { formatSlugLine } from "./mapping.ts";
import { SLUG_MAX_LENGTH } from "./rule.ts";

export interface AssignSlugsOptions {
  /** From {@link parseSlugMapping}; explicit slugs win and get no prefix. */
  mapping?: ReadonlyMap<string, string>;
  prefix?: string;
  repositoryName: string;
  /**
   * The slug a spec is published under, from its slug (a pull request's preview slug). Collisions are
   * judged on what it returns. Default: the slug itself.
   */
  publishedSlug?: (slug: string) => string;
  /**
   * Whether two files hold the same document. Of such files one is published and the others are
   * excluded in the fix; other colliding files are given slugs of their own. Default: never.
   */
  sameDocument?: (first: string, second: string) => boolean;
  /** The `files` input's lines, when it is set; the fix then adds to it. */
  filePatterns?: readonly string[] | undefined;
  /** How messages name the slugs setting ("the `slugs` input", "--slug"). */
  slugsSetting?: string;
}

/**
 * Gives every discovered spec (workspace-relative path) the slug it is published under. Throws
 * {@link SlugInputError} naming every mapped path that is not a discovered spec, and
 * {@link DuplicateSlugError} listing every slug that more than one spec would get, each with its fix.
 */
export function assignSlugs(paths: readonly string[], options: AssignSlugsOptions): Map<string, string> {
  const mapping = options.mapping ?? new Map<string, string>();
  const known = new Set(paths);
  const unknown = [...mapping.keys()].filter((mappedPath) => !known.has(mappedPath));
  if (unknown.length > 0)
    throw unknownMappingError(unknown, paths, options.slugsSetting ?? "the `slugs` input");

  const published = options.publishedSlug ?? ((slug: string) => slug);
  const baseSlugs = new Map<string, string>();
  const slugs = new Map<string, string>();
  const filesBySlug = new Map<string, string[]>();
  for (const filePath of [...known].sort()) {
    const base =
      mapping.get(filePath) ??
      deriveSlug(filePath, {
        repositoryName: options.repositoryName,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      });
    const slug = published(base);
    baseSlugs.set(filePath, base);
    slugs.set(filePath, slug);
    const files = filesBySlug.get(slug);
    if (files) files.push(filePath);
    else filesBySlug.set(slug, [filePath]);
  }

  const groups = [...filesBySlug].filter(([, files]) => files.length > 1);
  if (groups.length === 0) return slugs;
  const planner = new FixPlanner(baseSlugs, slugs, mapping, published, options.sameDocument);
  const collisions = groups.map(([slug, files]) => planner.plan(slug, files));
  throw new DuplicateSlugError(collisions, {
    filesInputSet: options.filePatterns !== undefined,
    assigned: slugs,
  });
}

/** Chooses, for every collision, which file keeps the slug and what to do with each other one. */
class FixPlanner {
  private readonly baseSlugs: ReadonlyMap<string, string>;
  private readonly mapping: ReadonlyMap<string, string>;
  private readonly published: (slug: string) => string;
  private readonly sameDocument: ((first: string, second: string) => boolean) | undefined;
  /** Every slug in use or suggested, before and after {@link published}: a suggestion takes a free one. */
  private readonly takenBase: Set<string>;
  private readonly takenPublished: Set<string>;

  constructor(
    baseSlugs: ReadonlyMap<string, string>,
    slugs: ReadonlyMap<string, string>,
    mapping: ReadonlyMap<string, string>,
    published: (slug: string) => string,
    sameDocument: ((first: string, second: string) => boolean) | undefined,
  ) {
    this.baseSlugs = baseSlugs;
    this.mapping = mapping;
    this.published = published;
    this.sameDocument = sameDocument;
    this.takenBase = new Set(baseSlugs.values());
    this.takenPublished = new Set(slugs.values());
  }

  /**
   * Files holding the same document form one cluster; the first cluster with a mapped file (else the
   * first) keeps the slug. In each cluster, its mapped file (else its first) stays and the others are
   * excluded; the staying file of every other cluster gets a new slug.
   */
  plan(slug: string, files: readonly string[]): SlugCollision {
    const clusters = this.clusters(files);
    const keeperCluster = clusters.find((cluster) => cluster.some((f) => this.mapping.has(f))) ?? clusters[0];
    const stayer = (cluster: readonly string[]) =>
      cluster.find((f) => this.mapping.has(f)) ?? (cluster[0] as string);
    const keeps = stayer(keeperCluster as string[]);
    const fixes: SlugFix[] = [];
    for (const cluster of clusters) {
      const stays = stayer(cluster);
      if (cluster !== keeperCluster) fixes.push(this.newSlug(stays, keeps));
      for (const other of cluster) if (other !== stays) fixes.push(this.exclusion(other, stays));
    }
    fixes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    return { slug, files: [...files], keeps, fixes };
  }

  private clusters(files: readonly string[]): string[][] {
    const clusters: string[][] = [];
    for (const file of files) {
      const same = this.sameDocument
        ? clusters.find((cluster) => this.sameDocument?.(cluster[0] as string, file))
        : undefined;
      if (same) same.push(file);
      else clusters.push([file]);
    }
    return clusters;
  }

  private exclusion(file: string, sameAs: string): SlugFix {
    const line = formatExcludeLine(file);
    if (line === undefined) return { kind: "rename", file, reason: "the `files` input cannot name it" };
    return { kind: "exclude", file, sameAs, line, mapped: this.mapping.has(file) };
  }

  /** The first free slug of: `<slug>-<extension>` (when the kept file's differs), `<slug>-2`, `-3`, … */
  private newSlug(file: string, keeps: string): SlugFix {
    const base = this.baseSlugs.get(file) as string;
    const extension = extensionOf(file);
    const byExtension = extension !== "" && extension !== extensionOf(keeps) ? `-${extension}` : undefined;
    for (const suffix of suffixes(byExtension)) {
      const candidate = `${cutSlug(base, SLUG_MAX_LENGTH - suffix.length)}${suffix}`;
      const published = this.published(candidate);
      if (this.takenBase.has(candidate) || this.takenPublished.has(published)) continue;
      const line = formatSlugLine(file, candidate);
      if (line === undefined) return { kind: "rename", file, reason: "the `slugs` input cannot name it" };
      this.takenBase.add(candidate);
      this.takenPublished.add(published);
      return { kind: "slug", file, slug: candidate, line, mapped: this.mapping.has(file) };
    }
    throw new Error("unreachable: the suffixes never end");
  }
}

function* suffixes(first: string | undefined): Generator<string> {
  if (first !== undefined) yield first;
  for (let n = 2; ; n += 1) yield `-${n}`;
}

/** `yaml`, `yml` or `json` (lowercase); "" when the name has no usable extension. */
function extensionOf(file: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(file);
  return match ? (match[1] as string).toLowerCase() : "";
}

function unknownMappingError(
  unknown: readonly string[],
  paths: readonly string[],
  setting: string,
): SlugInputError {
  const listed = unknown.map((mappedPath) => JSON.stringify(mappedPath)).join(", ");
  const what =
    unknown.length === 1
      ? `${listed}, which is not one of the specifications found`
      : `${unknown.length} paths that are not among the specifications found: ${listed}`;
  return new SlugInputError(
    `${setting.charAt(0).toUpperCase()}${setting.slice(1)} maps ${what} (found: ${describeFound(paths)}). ` +
      "Check the paths for typos; they are relative to the workspace.",
  );
}

function describeFound(paths: readonly string[]): string {
  if (paths.length === 0) return "none";
  const shown = [...paths]
    .sort()
    .slice(0, 5)
    .map((p) => JSON.stringify(p))
    .join(", ");
  return paths.length > 5 ? `${shown}, and ${paths.length - 5} more` : shown;
}
