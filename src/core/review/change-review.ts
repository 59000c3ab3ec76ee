/**
 * API change review: each spec of a preview compared with what it was at the review's base commit
 * (bundled the same way), or, when the base cannot be had, with the published spec's latest version.
 * The comparison itself is a port (`ChangeComparer`), src/core/changes' job.
 */
import { type ApiChange, type ApiChanges, changePlace, isAllowed } from "../changes/index.ts";
import { type DiscoveredSpec, discoverSpecs } from "../discovery/index.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import { readVersionFiles } from "../service/parse.ts";
import type { SpecVersionContent } from "../service/types.ts";
import type { ShapingSteps } from "../shaping/audiences.ts";
import type { BaseTree, Git } from "../sync/ports.ts";
import type { SpecChange, SpecChanges } from "../sync/result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { type BaseFile, readBaseDocument } from "./base-document.ts";
import { budgetedCompare, type DebugLog, NotReviewedError } from "./compare-worker.ts";

export type { BaseFile };

export interface ChangeComparer {
  /**
   * The changes from `before` to `after`; rejects when the comparison cannot finish (a
   * {@link NotReviewedError} says why). `log` receives what is worth a debug line.
   */
  compare(before: unknown, after: unknown, log?: DebugLog): Promise<ApiChanges>;
  /** Whether the allow-list (operation ids, paths, `METHOD /path`) accepts a breaking change. */
  isAllowed(change: ApiChange, allowList: readonly string[]): boolean;
}

/**
 * The comparer of src/core/changes, each comparison in a worker under its own memory and time budget
 * (./compare-worker.ts), read from `env` (GITBOOK_REVIEW_HEAP_MB, GITBOOK_REVIEW_TIMEOUT_MS).
 */
export function changeComparer(env: Readonly<Record<string, string | undefined>>): ChangeComparer {
  return { compare: budgetedCompare(env), isAllowed };
}

/** The comparer under the budget of the process's environment (the Action's). */
export const apiChangeComparer: ChangeComparer = changeComparer(process.env);

/** What a spec is compared with. */
export interface BaseSide {
  against: "base commit" | "published version";
  /** Why the base commit could not be used, when it could not. */
  fallbackReason?: string;
  /**
   * The spec's document on that side, shaped by `steps` when given (the head's steps: an audience is
   * compared with the same audience); undefined when the spec did not exist there.
   */
  documentOf(file: string, slug: string, steps?: ShapingSteps): Promise<unknown | undefined>;
  /**
   * Base commit only: where the base has the file (undefined when it has not), so that its document
   * can be read elsewhere — in the preparation's worker, where the run can end it ({@link readBaseDocument}).
   */
  fileOf?(file: string): BaseFile | undefined;
  /** Spec files of the base that the head no longer has (base commit only). */
  removedSince(headFiles: ReadonlySet<string>): string[];
  dispose(): Promise<void>;
}

/**
 * The base commit's specs, discovered with the same patterns and bundled the same way; or, when the
 * commit is unknown or cannot be fetched, the published versions read through `published`.
 */
export async function openBaseSide(options: {
  workspace: string;
  commit: string | undefined;
  patterns: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  published: (slug: string) => Promise<unknown | undefined>;
  git: Git | undefined;
}): Promise<BaseSide> {
  const tree: BaseTree = !options.commit
    ? { ok: false, reason: "the host gave no base commit" }
    : options.git
      ? await options.git.checkoutTree(options.workspace, options.commit)
      : { ok: false, reason: "this run has no git" };
  if (!tree.ok) {
    return {
      against: "published version",
      fallbackReason: tree.reason,
      documentOf: (_file, slug) => options.published(slug).catch(() => undefined),
      removedSince: () => [],
      dispose: async () => {},
    };
  }
  const discovery = await discoverSpecs({
    workspace: tree.root,
    ...(options.patterns ? { patterns: options.patterns } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    logger: silentLogger,
  }).catch(() => ({ specs: [] as DiscoveredSpec[], broken: [] }));
  const specs = new Map(discovery.specs.map((spec) => [spec.path, spec]));
  const fileOf = (file: string): BaseFile | undefined => {
    const spec = specs.get(file);
    return spec && { spec, base: tree.root, head: options.workspace, file };
  };
  return {
    against: "base commit",
    documentOf: async (file, _slug, steps) => {
      const where = fileOf(file);
      return where ? readBaseDocument(where, steps) : undefined;
    },
    fileOf,
    removedSince: (headFiles) => [...specs.keys()].filter((file) => !headFiles.has(file)).sort(),
    dispose: () => tree.dispose(),
  };
}

/**
 * A spec's changes for the report; a spec new on this side has every part of it as new. A comparison
 * that cannot finish leaves the spec "not reviewed", with a warning: the rest of the run goes on.
 */
export async function specChanges(
  before: unknown | undefined,
  after: unknown,
  against: BaseSide["against"],
  comparer: ChangeComparer,
  allowList: readonly string[],
  context: { file?: string; log?: Pick<Logger, "debug" | "warning"> } = {},
): Promise<SpecChanges> {
  if (before === undefined) {
    return {
      against: "nothing",
      breaking: [],
      other: [{ kind: "spec-added", message: "New spec." }],
      allowed: [],
    };
  }
  let compared: ApiChanges;
  try {
    compared = await comparer.compare(before, after, context.log);
  } catch (error) {
    const reason =
      error instanceof NotReviewedError
        ? error.reason
        : `the comparison failed: ${error instanceof Error ? error.message : String(error)}`;
    context.log?.warning(
      escapeUntrusted(
        `API changes of ${context.file ?? "this spec"} not reviewed: ${reason}. The rest of the run goes on; fail-on-breaking does not count it.`,
      ),
    );
    return { against, breaking: [], other: [], allowed: [], notReviewed: reason };
  }
  const { breaking, other, omitted } = compared;
  const allowed = breaking.filter((change) => comparer.isAllowed(change, allowList));
  return {
    against,
    breaking: breaking.filter((change) => !allowed.includes(change)).map(specChange),
    other: other.map(specChange),
    allowed: allowed.map(specChange),
    ...(omitted ? { omitted } : {}),
  };
}

/** A change as the results carry it: its kind, its place (`changePlace`), its operation id, its message. */
export function specChange(change: ApiChange): SpecChange {
  const operation = changePlace(change);
  return {
    kind: change.kind,
    ...(operation === undefined ? {} : { operation }),
    ...(change.operationId === undefined ? {} : { operationId: change.operationId }),
    message: change.message,
  };
}

/** A change of the results as one line, as `changeLine` writes an `ApiChange`: its place, then its message. */
export function specChangeLine(change: SpecChange): string {
  return change.operation === undefined ? change.message : `${change.operation}: ${change.message}`;
}

/**
 * The document GitBook holds in a version's content: its one entrypoint's parsed `specification`, read
 * with the client's `readVersionFiles` (see docs/version-content.md); undefined for any other shape.
 */
export function entrypointDocument(content: SpecVersionContent): unknown | undefined {
  const files = readVersionFiles(content.filesystem);
  if (files.kind !== "files") return undefined;
  const entrypoints = files.entries.filter((entry) => entry.isEntrypoint);
  const specification = entrypoints.length === 1 ? entrypoints[0]?.specification : undefined;
  return typeof specification === "object" && specification !== null ? specification : undefined;
}
