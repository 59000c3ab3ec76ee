/**
 * API change review: each spec of a preview compared with what it was at the review's base commit
 * (bundled the same way), or, when the checkout lacks that commit, with the published spec's latest
 * version. A spec is new only when a side was read and lacks it; any other failure to read a side
 * leaves it "not reviewed", saying why.
 * The comparison itself is a port (`ChangeComparer`), src/core/changes' job.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { type ApiChange, type ApiChanges, changePlace, isAllowed } from "../changes/index.ts";
import { discoverSpecs, inspectFile, NO_GIT_LISTING } from "../discovery/index.ts";
import { readPatternLines } from "../discovery/patterns.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import type { ReviewBudget } from "../plan/run-settings.ts";
import type { BaseTree, ChangeComparer, Clock, Git, VersionContentReader } from "../ports.ts";
import type { SpecChange, SpecChanges } from "../result.ts";
import { describeServiceError, isNotFound } from "../service/describe-error.ts";
import { readVersionFiles } from "../service/parse.ts";
import type { SpecVersionContent } from "../service/types.ts";
import type { ShapingSteps } from "../shaping/publish-targets.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { type BaseFile, readBaseDocument } from "./base-document.ts";
import { budgetedCompare } from "./compare-worker.ts";
import { NotReviewedError } from "./not-reviewed.ts";

export type { BaseFile };

/**
 * The comparer of src/core/changes, each comparison in a worker under `budget` (./compare-worker.ts),
 * the host's reading of the settings `review-heap-mb` and `review-timeout-ms`.
 */
export function changeComparer(budget: ReviewBudget): ChangeComparer {
  return { compare: budgetedCompare(budget), isAllowed };
}

/** What a spec is compared with. */
export interface BaseSide {
  against: "base commit" | "published version";
  /** Why the base commit could not be used, when it could not. */
  fallbackReason?: string;
  /**
   * The spec's document on that side, shaped by `steps` when given (the head's steps: an audience is
   * compared with the same audience); undefined only when that side is proven not to have it (the base
   * commit was read and lacks the file, or GitBook holds no such slug). Rejects with a
   * {@link NotReviewedError} when the side could not be read.
   */
  documentOf(file: string, slug: string, steps?: ShapingSteps): Promise<unknown | undefined>;
  /**
   * Base commit only: where the base has the file, so that its document can be read elsewhere — in the
   * preparation's worker, where the run can end it ({@link readBaseDocument}).
   */
  fileOf?(file: string): BaseFile;
  /** Spec files of the base that the head no longer has (base commit only). */
  removedSince(headFiles: ReadonlySet<string>): string[];
  dispose(): Promise<void>;
}

/** The longest reading the base commit's files may take (fetch included), within the run's deadline. */
export const BASE_TREE_BUDGET_MS = 120_000;
/** The longest one published version's read may take, within the run's deadline. */
export const PUBLISHED_READ_BUDGET_MS = 30_000;

/** A read's budget: its own cap, and never more than a third of the time the run has left. */
export function readBudgetMs(cap: number, clock: Clock, deadline: number): number {
  return Math.max(0, Math.floor(Math.min(cap, (deadline - clock.now()) / 3)));
}

/**
 * The base commit's specs, discovered with the same patterns and bundled the same way; or, when the host
 * gave no commit or the checkout lacks it and it cannot be fetched, the published versions read through
 * `published`. When the commit's files cannot be read (git failed, a bound was passed, the budget ran
 * out), every spec is "not reviewed", with the reason: never reported as new.
 */
export async function openBaseSide(options: {
  workspace: string;
  commit: string | undefined;
  patterns: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  /** A slug's published document; undefined only when GitBook holds no such slug (see {@link publishedReader}). */
  published: (slug: string) => Promise<unknown | undefined>;
  git: Git | undefined;
  /** For the base tree's budget ({@link readBudgetMs}) and what is said of the base. */
  clock?: Clock;
  deadline?: number;
  logger?: Pick<Logger, "info" | "warning">;
}): Promise<BaseSide> {
  const { logger } = options;
  const timeoutMs =
    options.clock && options.deadline !== undefined
      ? readBudgetMs(BASE_TREE_BUDGET_MS, options.clock, options.deadline)
      : BASE_TREE_BUDGET_MS;
  const { commit, git } = options;
  const tree: BaseTree = !commit
    ? { ok: false, missing: true, reason: "the host gave no base commit" }
    : git
      ? await git
          .checkoutTree(options.workspace, commit, { timeoutMs })
          .catch((error: unknown) => ({ ok: false as const, reason: `git failed: ${messageOf(error)}` }))
      : { ok: false, missing: true, reason: "this run has no git" };
  if (!tree.ok && tree.missing) {
    const say = commit ? logger?.warning.bind(logger) : logger?.info.bind(logger);
    say?.(
      escapeUntrusted(
        `API change review: ${tree.reason}; each spec is compared with its published version instead.`,
      ),
    );
    return {
      against: "published version",
      fallbackReason: tree.reason,
      documentOf: async (_file, slug) => {
        try {
          return await options.published(slug);
        } catch (error) {
          throw new NotReviewedError(
            `${tree.reason}, and the published version could not be read: ${reasonOf(error)}`,
          );
        }
      },
      removedSince: () => [],
      dispose: async () => {},
    };
  }
  if (!tree.ok) return unreadableBase(tree.reason, logger);
  const root = tree.root;
  const baseSpecs = await baseSpecFiles(root, options.patterns, options.exclude).catch((error: unknown) => {
    logger?.warning(
      escapeUntrusted(
        `API change review: the base commit's spec files could not be listed (${messageOf(error)}), so specs removed since the base are not reported.`,
      ),
    );
    return [];
  });
  const fileOf = (file: string): BaseFile => ({
    base: root,
    head: options.workspace,
    file,
    ...(tree.skipped?.has(file) ? { skipped: tree.skipped.get(file) } : {}),
  });
  return {
    against: "base commit",
    documentOf: (file, _slug, steps) => readBaseDocument(fileOf(file), steps),
    fileOf,
    removedSince: (headFiles) => baseSpecs.filter((file) => !headFiles.has(file)).sort(),
    dispose: () => tree.dispose(),
  };
}

/**
 * The base's spec files under the same patterns. A literal pattern naming what the base does not hold
 * as a spec (a file the change adds, or one that was not OpenAPI then) names nothing there, rather than
 * stopping discovery as it does at the head.
 */
async function baseSpecFiles(
  root: string,
  patterns: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): Promise<string[]> {
  const lines = readPatternLines(patterns ?? []);
  const kept: string[] = [];
  for (const line of lines) {
    if (!line.negated && line.literal && !(await namesSomething(root, line.body))) continue;
    kept.push(line.text);
  }
  const positive = (texts: readonly string[]) => texts.some((text) => !text.startsWith("!"));
  if (positive(lines.map((line) => line.text)) && !positive(kept)) return [];
  const discovery = await discoverSpecs({
    workspace: root,
    // Written out from the commit's tree: not a work tree, and nothing in it is ignored.
    git: NO_GIT_LISTING,
    ...(kept.length > 0 ? { patterns: kept } : {}),
    ...(exclude ? { exclude } : {}),
    logger: silentLogger,
  });
  return discovery.specs.map((spec) => spec.path);
}

/** Whether a literal pattern names a folder or a spec (sound or broken) in the base's files. */
async function namesSomething(root: string, relative: string): Promise<boolean> {
  const inspection = await inspectFile(root, relative).catch(() => undefined);
  if (inspection?.kind === "spec" || inspection?.kind === "broken") return true;
  return stat(path.join(root, relative)).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/** A base commit whose files could not be read: every spec "not reviewed", saying why. */
function unreadableBase(reason: string, logger: Pick<Logger, "warning"> | undefined): BaseSide {
  const why = `the base commit could not be read: ${reason}`;
  logger?.warning(escapeUntrusted(`API change review: ${why}. No spec is reviewed.`));
  return {
    against: "base commit",
    fallbackReason: reason,
    documentOf: () => Promise.reject(new NotReviewedError(why)),
    removedSince: () => [],
    dispose: async () => {},
  };
}

/**
 * A slug's document as GitBook publishes it (its latest version's content), each read under its own
 * budget ({@link readBudgetMs}); undefined only when GitBook answered that it holds no such slug (the
 * run's listing lacks it, or the read is a 404). Any other failure rejects with why.
 */
export function publishedReader(options: {
  reader: VersionContentReader | undefined;
  orgId: string | undefined;
  /** The organization's specs by slug, when the run listed them. */
  listing: ReadonlyMap<string, unknown> | undefined;
  clock: Clock;
  deadline: number;
}): (slug: string) => Promise<unknown | undefined> {
  return async (slug) => {
    const { reader, orgId } = options;
    if (!reader || !orgId) throw new NotReviewedError("the run has no GitBook connection to read it with");
    if (options.listing && !options.listing.has(slug)) return undefined;
    const budgetMs = readBudgetMs(PUBLISHED_READ_BUDGET_MS, options.clock, options.deadline);
    let content: SpecVersionContent;
    try {
      content = await reader.getLatestVersionContent(orgId, slug, {
        deadline: options.clock.now() + budgetMs,
      });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw new NotReviewedError(describeServiceError(error).message);
    }
    const document = entrypointDocument(content);
    if (document === undefined)
      throw new NotReviewedError(`GitBook's latest version of ${slug} is not one OpenAPI document`);
    return document;
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
      error instanceof NotReviewedError ? error.reason : `the comparison failed: ${messageOf(error)}`;
    return notReviewed(against, reason, context);
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

/**
 * A spec's changes against its base side: the side's document (proven absent: a new spec), compared; a
 * side that could not be read leaves the spec "not reviewed", with the reason and a warning.
 */
export async function reviewChanges(
  side: BaseSide,
  target: { file: string; slug: string; steps?: ShapingSteps | undefined },
  after: unknown,
  comparer: ChangeComparer,
  allowList: readonly string[],
  context: { file?: string; log?: Pick<Logger, "debug" | "warning"> } = {},
): Promise<SpecChanges> {
  let before: unknown;
  try {
    before = await side.documentOf(target.file, target.slug, target.steps);
  } catch (error) {
    const reason =
      error instanceof NotReviewedError ? error.reason : `its base could not be read: ${messageOf(error)}`;
    return notReviewed(side.against, reason, context);
  }
  return specChanges(before, after, side.against, comparer, allowList, context);
}

export function notReviewed(
  against: BaseSide["against"],
  reason: string,
  context: { file?: string; log?: Pick<Logger, "warning"> },
): SpecChanges {
  context.log?.warning(
    escapeUntrusted(
      `API changes of ${context.file ?? "this spec"} not reviewed: ${reason}. The rest of the run goes on; only fail-on-unreviewed counts it.`,
    ),
  );
  return { against, breaking: [], other: [], allowed: [], notReviewed: reason };
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}

function reasonOf(error: unknown): string {
  return error instanceof NotReviewedError ? error.reason : messageOf(error);
}

/** A change as the results carry it: its kind, its place (`changePlace`), its operation id, its message. */
export function specChange(change: ApiChange): SpecChange {
  const operation = changePlace(change);
  return {
    kind: change.kind,
    ...(operation === undefined ? {} : { operation }),
    ...(change.operationId === undefined ? {} : { operationId: change.operationId }),
    message: change.message,
    pointer: change.location,
  };
}

/**
 * The document GitBook holds in a version's content: its one entrypoint's parsed `specification`, read
 * with the client's `readVersionFiles` (see docs/design/version-content.md); undefined for any other shape.
 */
export function entrypointDocument(content: SpecVersionContent): unknown | undefined {
  const files = readVersionFiles(content.filesystem);
  if (files.kind !== "files") return undefined;
  const entrypoints = files.entries.filter((entry) => entry.isEntrypoint);
  const specification = entrypoints.length === 1 ? entrypoints[0]?.specification : undefined;
  return typeof specification === "object" && specification !== null ? specification : undefined;
}
