import { availableParallelism } from "node:os";
import pLimit from "p-limit";
import type { BaseSide } from "../change-review/change-review.ts";
import type { ChangeReviewReport } from "../change-review/review-verdict.ts";
import { DiscoveryError, type DiscoveryResult, discoverSpecs, NO_GIT_LISTING } from "../discovery/index.ts";
import type { Logger } from "../logger.ts";
import { ownerKey } from "../ownership/ownership.ts";
import type { ReviewTarget, SyncPlan } from "../plan/plan.ts";
import type {
  Ancestry,
  Clock,
  Git,
  RememberedVersion,
  ReviewThread,
  RunService,
  SpecLister,
  SyncMode,
  SyncPorts,
} from "../ports.ts";
import { assignRunSlugs, isBroken, type SpecFile, specFilesOf } from "../prepare/prepare.ts";
import type { PreviewToDelete } from "../previews/cleanup.ts";
import type { PruneOutcome } from "../prune/prune.ts";
import { formatDuration } from "../publish/publish.ts";
import { BatchedStateReader } from "../publish/state-reads.ts";
import { placeLinks } from "../report/line-links.ts";
import type { SpecResult } from "../result.ts";
import type { Spec } from "../service/types.ts";
import type { PublishTarget } from "../shaping/publish-targets.ts";
import { namedAfterRepository } from "../slugs/derive.ts";
import { DuplicateSlugError } from "../slugs/errors.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { UNCHANGED_READ_BUDGET_MS } from "../unchanged/skip-unchanged.ts";
import { firstContact, listAllSpecs } from "./first-contact.ts";
import { limitConcurrency } from "./limit.ts";
import { resolveOrganizationId } from "./organization.ts";
import { streamSpecs } from "./pipeline.ts";
import { type Connection, IN_THREAD_BYTES, streamedSpec } from "./spec-work.ts";
import { orStopAfterGrace, stoppedReview, TrackedSpecs, withinStopGrace } from "./stop-grace.ts";
import { collisionResults, stoppedRunResults, stopReason } from "./stopped.ts";
import { runTargets, slugsByFile, targetLine } from "./targets.ts";

export type { ChangeReviewReport };

export interface SyncReport {
  mode: SyncMode;
  organizationId: string | undefined;
  /** One per spec, in path order. */
  results: SpecResult[];
  /** Slug collisions: their files failed, every other file went on; the run failed. */
  slugCollisions?: DuplicateSlugError;
  /** Why the run stopped: before any upload (an input problem), or its host's stop; the run failed. */
  stoppedReason?: string;
  /** What stopped it, for a host that tells kinds of stop apart (exit codes). */
  stoppedBy?: unknown;
  durationMs: number;
  /** The review comment or note, when one was written. */
  reviewUrl?: string;
  /** The change review, in preview runs that have one. */
  changeReview?: ChangeReviewReport;
  /**
   * Why pruning deleted nothing, when it could not run (the repository's identity unknown, slug
   * collisions, failed specs, a failed listing): the run failed, though every spec's row may be fine.
   */
  pruneFailure?: string;
}

/** How long review calls may go on after the run's deadline, to put the results in the comment. */
const REVIEW_GRACE_MS = 10_000;
/** Specs between their read and the end of their upload, per request slot: keeps the uploads busy. */
const SPECS_AHEAD_PER_SLOT = 2;
/**
 * Bytes of small unshaped specs from which a run prepares them in a second thread too, the lane's worker
 * (as many queued there as the run's concurrency: half the specs in flight): about 0.3 s of the main
 * thread's work. Less pays no worker's start (100 specs of 2 KiB published 10 % slower with it;
 * docs/design/stoppable-preparation.md, "The lane").
 */
const LANE_AFTER_BYTES = 4 * 1024 * 1024;

/**
 * Whether a run that uploads is one for the lane: at least {@link LANE_AFTER_BYTES} of small unshaped
 * specs, and no spec too large for the main thread, whose document the pool's worker would hold beside
 * the lane's heap (the APIs-guru check peaked at 414-433 MiB with the lane, 384-388 without). A check has
 * no uploads for the lane to overlap: 2,370 real small specs were checked in the same time with it, for
 * 20 % more CPU and 25 MiB. On one core the lane would only add its cost.
 */
function wantsLane(targets: readonly PublishTarget[], files: ReadonlyMap<string, SpecFile>): boolean {
  if (availableParallelism() < 2) return false;
  let smallBytes = 0;
  for (const target of targets) {
    const file = files.get(target.file);
    if (!file || isBroken(file)) continue;
    if (file.bytes > IN_THREAD_BYTES) return false;
    if (!target.steps) smallBytes += file.bytes;
  }
  return smallBytes >= LANE_AFTER_BYTES;
}

/**
 * The whole sync, CI-neutral: discover → slug → (read → validate → bundle → upload, streamed) → wait →
 * report. It never throws for a spec's problem, nor for a problem that stops the run: the report says
 * what happened to each spec it knew of.
 */
export async function runSync(plan: SyncPlan, ports: SyncPorts): Promise<SyncReport> {
  const started = ports.clock.now();
  const slugsByFile = new Map<string, string>();
  const report = (fields: Omit<SyncReport, "mode" | "durationMs">): SyncReport => ({
    mode: plan.mode,
    ...fields,
    durationMs: ports.clock.now() - started,
  });
  try {
    return report(await runSteps(plan, ports, slugsByFile));
  } catch (error) {
    return report({
      organizationId: undefined,
      results: stoppedRunResults(slugsByFile, error),
      stoppedReason: error instanceof Error ? error.message : String(error),
      stoppedBy: error,
    });
  }
}

/** The step timings a run logs at its end. */
class Timings {
  private readonly entries: string[] = [];
  private readonly clock: Clock;
  readonly started: number;

  constructor(clock: Clock) {
    this.clock = clock;
    this.started = clock.now();
  }

  async timed<T>(label: string, step: () => Promise<T>): Promise<T> {
    const at = this.clock.now();
    const value = await step();
    this.entries.push(`${label} ${formatDuration(this.clock.now() - at)}`);
    return value;
  }

  line(): string {
    return `Timings: ${this.entries.join(", ")}; total ${formatDuration(this.clock.now() - this.started)}.`;
  }
}

/** What discovery and the slug rule give the rest of the run. */
interface Found {
  discovery: DiscoveryResult;
  /** Every discovered file, broken ones included. */
  allFiles: SpecFile[];
  slugs: Map<string, string>;
  collisions: DuplicateSlugError | undefined;
  /** The colliding files' results: they fail on their own, with their fix. */
  collided: SpecResult[];
  /** The files the run works on: every file but the colliding ones. */
  files: SpecFile[];
  /** Every file's publications: one, or one per audience (targets.ts), in path order. */
  targets: PublishTarget[];
}

/** What the run reaches GitBook and the review thread with; every field undefined without a token. */
interface Link {
  client: RunService | undefined;
  limit: ReturnType<typeof pLimit>;
  organizationId: string | undefined;
  connection: Connection | undefined;
  /** The organization's specs, listed by the run's first request. */
  listing: ReadonlyMap<string, Spec> | undefined;
  review: ReviewThread | undefined;
  deadline: number;
}

async function runSteps(
  plan: SyncPlan,
  ports: SyncPorts,
  slugsByFile: Map<string, string>,
): Promise<Omit<SyncReport, "mode" | "durationMs">> {
  const timings = new Timings(ports.clock);
  const found = await discover(plan, ports, slugsByFile, timings);
  // One deadline for the whole network phase: every GitBook request, retry and wait ends by it; the
  // review comment gets a few seconds more to report the results.
  const deadline = ports.clock.now() + plan.timeoutSeconds * 1000;
  const client = ports.createService?.(deadline);
  let baseSide: BaseSide | undefined;
  try {
    const link = await orStopAfterGrace(
      connect(plan, ports, client, deadline, timings),
      ports.stop,
      ports.clock,
    );
    // The plan once GitBook has accepted the token and the organization: a refusal is said alone.
    if (plan.mode !== "cleanup") {
      warnOfRepository(plan, ports.logger, found.allFiles);
      logPlan(ports.logger, plan.mode, found.targets);
    }
    // The owner goes into records and proves them, both through GitBook: a run without it needs none.
    const owner = client
      ? ownerKey({ repository: plan.repositoryIdentity, slugPrefix: plan.slugPrefix })
      : "";
    let results: SpecResult[];
    if (plan.mode === "cleanup") results = await cleanUp(plan, ports.logger, found, link, timings);
    else {
      baseSide = await orStopAfterGrace(openBase(plan, ports, link), ports.stop, ports.clock);
      results = await publish(plan, ports, found, link, { baseSide, owner }, timings);
    }
    let pruneFailure: string | undefined;
    if (!ports.stop?.aborted) {
      const pruned = await prune(plan, ports, found, link, { owner, published: results }, timings);
      results = [...results, ...pruned.results];
      pruneFailure = pruned.failure;
    }
    if (ports.stop?.aborted) return await stoppedByHost(plan, ports, ports.stop, link, results);
    const report = await finish(plan, ports, found, link, baseSide, results, timings);
    return pruneFailure ? { ...report, pruneFailure } : report;
  } finally {
    await baseSide?.dispose();
    // After a stop, requests left under way end with the host's process: closing would wait for them.
    if (ports.stop?.aborted) client?.close().catch(() => {});
    else await client?.close();
  }
}

/**
 * A run its host stopped: what it did (each spec cancelled or not started said so), told in the
 * review's comment under a short grace of its own, so that a preview published before the stop is
 * recorded there and deleted with the others when the pull request closes.
 */
async function stoppedByHost(
  plan: SyncPlan,
  ports: SyncPorts,
  stop: AbortSignal,
  link: Link,
  results: SpecResult[],
): Promise<Omit<SyncReport, "mode" | "durationMs">> {
  const reviewUrl = plan.review
    ? await stoppedReview(
        ports.openReview,
        { mode: plan.mode, results, links: placeLinks(plan.lineLinks, plan.changeReview?.baseCommit) },
        stop,
        ports.clock,
      )
    : undefined;
  return {
    organizationId: link.organizationId,
    results,
    stoppedReason: stopReason(stop),
    stoppedBy: stop.reason,
    ...(reviewUrl ? { reviewUrl } : {}),
  };
}

/** Discovery and slugs: the files the run knows of, each with its slug; collisions fail their own files. */
async function discover(
  plan: SyncPlan,
  ports: Pick<SyncPorts, "git" | "logger">,
  slugsByFile: Map<string, string>,
  timings: Timings,
): Promise<Found> {
  const { logger } = ports;
  const discovery = await timings.timed("discovery", () =>
    discoverSpecs({
      workspace: plan.workspace,
      git: ports.git ?? NO_GIT_LISTING,
      ...(plan.files ? { patterns: plan.files } : {}),
      ...(plan.exclude ? { exclude: plan.exclude } : {}),
      logger,
    }),
  );
  const allFiles = specFilesOf(discovery);
  for (const file of allFiles) slugsByFile.set(file.path, "");
  const { slugs, collisions } = slugsOrCollisions(discovery, plan);
  for (const [file, slug] of slugs) slugsByFile.set(file, slug);
  if (allFiles.length === 0 && plan.mode !== "cleanup") throw noSpecsError(plan);
  if (collisions) logger.error(collisions.message);
  const collided = collisions ? collisionResults(collisions) : [];
  const failedFiles = new Set(collided.map((result) => result.file));
  const files = allFiles.filter((file) => !failedFiles.has(file.path));
  const paths = allFiles.map((file) => file.path);
  const targets = runTargets(discovery, paths, slugs, plan);
  return { discovery, allFiles, slugs, collisions, collided, files, targets };
}

/**
 * Said once, before the plan: a spec named after a repository that nothing names (the checkout folder's
 * name stands in), and a publish whose records no later run can prove are this repository's.
 */
function warnOfRepository(plan: SyncPlan, logger: Logger, files: readonly SpecFile[]): void {
  if (plan.repositoryNameGuess) {
    const named = files.filter(({ path }) => !plan.slugMapping.has(path) && namedAfterRepository(path));
    if (named.length > 0) logger.warning(escapeUntrusted(plan.repositoryNameGuess));
  }
  if (plan.repositoryIdentity === undefined && plan.mode === "publish" && plan.slugPrefix !== undefined) {
    logger.warning(
      `${noIdentity}. Publishing goes on, but a later run with prune will not be able to prove these specs are this repository's, and will delete none of them.`,
    );
  }
}

/** Why a run has no repository identity, and how to give it one. */
const noIdentity =
  'Nothing names the repository: no CI variable of the "Repository identity" table (docs/publishing.md) is set, and the checkout has no `origin` remote (`git remote add origin <url>` sets one)';

/**
 * The organization, the review thread and the run's first request (which stops the run, said once,
 * when GitBook cannot be reached, refuses the token or does not know the organization).
 */
async function connect(
  plan: SyncPlan,
  ports: SyncPorts,
  client: RunService | undefined,
  deadline: number,
  timings: Timings,
): Promise<Link> {
  const limit = pLimit(plan.concurrency);
  const service = client && limitConcurrency(client, limit);
  const organizationId =
    client && plan.organization
      ? await resolveOrganizationId(plan.organization, client, plan.names)
      : undefined;
  const review = plan.review ? ports.openReview?.(deadline + REVIEW_GRACE_MS) : undefined;
  const connection = service && organizationId ? { service, organizationId } : undefined;
  const listing =
    client && connection
      ? await timings.timed("listing", () =>
          firstContact(client, connection.organizationId, plan.names, ports.logger),
        )
      : undefined;
  return { client, limit, organizationId, connection, listing, review, deadline };
}

/** Cleanup mode: the review's previews, derived and recorded, deleted. */
async function cleanUp(
  plan: SyncPlan,
  logger: Logger,
  found: Found,
  link: Link,
  timings: Timings,
): Promise<SpecResult[]> {
  const { connection } = link;
  if (!connection) throw new Error("Cleaning up previews needs a token and an organization.");
  const recorded = (await link.review?.recordedPreviews()) ?? [];
  const derived = found.targets.map((target): [string, string] => [target.file, target.slug]);
  const previews = previewsToDelete(derived, recorded, plan.review, logger);
  logger.group(`Plan (cleanup): delete ${previews.length} preview${previews.length === 1 ? "" : "s"}`, () => {
    for (const preview of previews) logger.info(escapeUntrusted(preview.slug));
  });
  const { deletePreviews } = await import("../previews/cleanup.ts");
  return timings.timed("cleanup", () =>
    deletePreviews(previews, { orgId: connection.organizationId, service: connection.service, logger }),
  );
}

/**
 * The change review's base side: the base commit's specs, or the published versions. A preview has
 * one; so does a check run its host gave a change review (`diff --base`: the review with no service).
 */
async function openBase(plan: SyncPlan, ports: SyncPorts, link: Link): Promise<BaseSide | undefined> {
  if (plan.mode !== "preview" && plan.mode !== "check") return undefined;
  if (!plan.changeReview || !ports.comparer) return undefined;
  // The change review (its comparison, shaping and their engines) loads only for a run that has one.
  const { openBaseSide, publishedReader } = await import("../change-review/change-review.ts");
  const { client, connection } = link;
  return openBaseSide({
    workspace: plan.workspace,
    commit: plan.changeReview.baseCommit,
    patterns: plan.files,
    exclude: plan.exclude,
    git: ports.git,
    clock: ports.clock,
    deadline: link.deadline,
    logger: ports.logger,
    published: publishedReader({
      reader: client,
      orgId: connection?.organizationId,
      listing: link.listing,
      clock: ports.clock,
      deadline: link.deadline,
    }),
  });
}

/** Every file through the streaming pipeline (read → check → bundle → upload → wait), in path order. */
async function publish(
  plan: SyncPlan,
  ports: SyncPorts,
  found: Found,
  link: Link,
  review: { baseSide: BaseSide | undefined; owner: string },
  timings: Timings,
): Promise<SpecResult[]> {
  const { client, connection, limit } = link;
  const { logger } = ports;
  const { baseSide, owner } = review;
  const comparing =
    baseSide && ports.comparer && plan.changeReview
      ? {
          side: baseSide,
          comparer: ports.comparer,
          allowed: plan.changeReview.allowed,
        }
      : undefined;
  const held = plan.skipUnchanged && plan.mode !== "check" ? link.listing : undefined;
  const states =
    client && connection && plan.mode !== "check"
      ? new BatchedStateReader({
          getSpec: (slug) => connection.service.getSpec(connection.organizationId, slug),
          listSpecs: () => limit(() => listAllSpecs(client, connection.organizationId)),
          clock: ports.clock,
          schedule: ports.polling?.schedule,
          minListIntervalMs: ports.polling?.listIntervalMs,
          deadline: link.deadline,
          knownSpecs: held?.size,
          onListingFailed: (reason) =>
            logger.debug(
              `Listing the organization's specs failed (${reason}); each spec is polled on its own.`,
            ),
        })
      : undefined;
  const memory = plan.mode === "publish" && connection ? ports.memory : undefined;
  const kept = new Map<string, RememberedVersion>();
  const remembered =
    memory && held && connection ? await memory.recall(connection.organizationId) : undefined;
  const stageConnection = connection && {
    ...connection,
    held,
    readOnly: plan.mode === "check",
    states,
    ...(memory
      ? { remembered, remember: (slug: string, upload: RememberedVersion) => kept.set(slug, upload) }
      : {}),
  };
  const unrecorded: string[] = [];
  const warned = new Set<string>();
  const tracked = ports.stop && new TrackedSpecs();
  // Imported when a run publishes, so that the build gives the workers' entry a chunk of its own.
  const { PreparationPool } = await import("../prepare/prepare-worker.ts");
  const byPath = new Map(found.files.map((file) => [file.path, file]));
  const preparation = new PreparationPool({
    ...(connection && plan.mode !== "check" && wantsLane(found.targets, byPath)
      ? { laneDepth: plan.concurrency }
      : {}),
    ...ports.preparation,
  });
  const streamed = found.targets.flatMap((target) => {
    const file = byPath.get(target.file);
    if (file === undefined) return [];
    // A file's own warnings once, with its first publication (audiences publish one file several times).
    const fileWarnings = !warned.has(target.file);
    warned.add(target.file);
    const run = {
      deadline: link.deadline,
      connection: stageConnection,
      comparing,
      owner,
      unrecorded,
      preparation,
    };
    const spec = streamedSpec(file, { target, fileWarnings }, plan, ports, run);
    return [tracked ? tracked.track(spec) : spec];
  });
  const label = plan.mode === "check" || !connection ? "checks" : "publishing";
  const results = await timings
    .timed(label, () => {
      const work = streamSpecs(streamed, {
        inFlight: plan.concurrency * SPECS_AHEAD_PER_SLOT,
        logger,
        progress: ports.progress,
      });
      return ports.stop && tracked ? withinStopGrace(work, tracked, ports.stop, ports) : work;
    })
    .finally(() => preparation.close());
  if (memory && connection) await memory.keep(connection.organizationId, kept);
  if (unrecorded.length > 0) {
    const shown = unrecorded.slice(0, 10).map(escapeUntrusted).join(", ");
    logger.warning(
      `${unrecorded.length} spec${unrecorded.length === 1 ? "" : "s"} could not carry a publish record, so GitBook's copy cannot be compared or owned: uploaded on every run, never pruned (${shown}${unrecorded.length > 10 ? ", …" : ""}).`,
    );
  }
  return inPathOrder([...results, ...found.collided]);
}

/** Pruning, when asked for: what this repository published and no longer has, on evidence only. */
async function prune(
  plan: SyncPlan,
  ports: SyncPorts,
  found: Found,
  link: Link,
  { owner, published }: { owner: string; published: readonly SpecResult[] },
  timings: Timings,
): Promise<PruneOutcome> {
  const { client, connection } = link;
  if (!plan.prune || !client || !connection || !plan.slugPrefix) return { results: [] };
  if (plan.mode !== "publish" && plan.mode !== "check") return { results: [] };
  const prefix = plan.slugPrefix;
  const [{ pruneSpecs }, { recordedFileIn }] = await Promise.all([
    import("../prune/prune.ts"),
    import("../prune/recorded-file.ts"),
  ]);
  return timings.timed("pruning", () =>
    pruneSpecs({
      orgId: connection.organizationId,
      prefix,
      keep: new Set(found.targets.map((target) => target.slug)),
      owner,
      blocked: pruneBlockedReason(plan, found.collisions, published),
      recordedFile: (recorded) => recordedFileIn(plan.workspace, recorded, slugsByFile(found.targets)),
      precedesRun: onceEach((recorded) => precedesRun(plan, ports.git, recorded)),
      readOptions: () => ({
        deadline: Math.min(link.deadline, ports.clock.now() + UNCHANGED_READ_BUDGET_MS),
      }),
      limit: plan.prune?.limit ?? 0,
      dryRun: plan.mode === "check",
      // Specs this run created are all among `keep`, so the run's first listing serves: no second one.
      lister: link.listing ? listed(link.listing) : client,
      service: connection.service,
      logger: ports.logger,
      limitSetting: plan.names("prune-limit"),
    }),
  );
}

/** The change review's verdict, the review comment, the timings: the report of a run that went through. */
async function finish(
  plan: SyncPlan,
  ports: SyncPorts,
  found: Found,
  link: Link,
  baseSide: BaseSide | undefined,
  results: SpecResult[],
  timings: Timings,
): Promise<Omit<SyncReport, "mode" | "durationMs">> {
  const { logger } = ports;
  const changeReview =
    baseSide && plan.changeReview
      ? (await import("../change-review/review-verdict.ts")).changeReviewReport(
          baseSide,
          results,
          new Set(found.files.map((file) => file.path)),
          plan.changeReview,
        )
      : undefined;
  if (changeReview?.failure) logger.error(changeReview.failure);
  const reviewUrl = link.review
    ? await link.review.publish({
        mode: plan.mode,
        results,
        ...(changeReview ? { removedSpecs: changeReview.removedSpecs } : {}),
        // The base's places were read at the review's base commit, when it could be read.
        links: placeLinks(
          plan.lineLinks,
          baseSide?.against === "base commit" ? plan.changeReview?.baseCommit : undefined,
        ),
      })
    : undefined;
  logger.info(timings.line());
  return {
    organizationId: link.organizationId,
    results,
    ...(found.collisions ? { slugCollisions: found.collisions } : {}),
    ...(reviewUrl ? { reviewUrl } : {}),
    ...(changeReview ? { changeReview } : {}),
  };
}

function listed(held: ReadonlyMap<string, Spec>): SpecLister {
  return {
    async *iterateSpecs() {
      yield* held.values();
    },
  };
}

/**
 * Every file's slug; on collisions, the slug each file would get and the collisions, so that the run
 * fails the colliding files and goes on with the others.
 */
function slugsOrCollisions(
  discovery: DiscoveryResult,
  plan: SyncPlan,
): { slugs: Map<string, string>; collisions?: DuplicateSlugError } {
  try {
    return { slugs: assignSlugsOf(discovery, plan) };
  } catch (error) {
    if (!(error instanceof DuplicateSlugError)) throw error;
    return { slugs: new Map(error.assigned), collisions: error };
  }
}

/** One answer per key: a thousand records of one commit ask git once, not a thousand times. */
function onceEach<T>(answer: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (key) => {
    let known = answers.get(key);
    if (known === undefined) {
      known = answer(key);
      answers.set(key, known);
    }
    return known;
  };
}

/** Whether a publish record's commit is the run's or one of its ancestors, as git can tell. */
async function precedesRun(plan: SyncPlan, git: Git | undefined, recorded: string): Promise<Ancestry> {
  if (plan.commit === undefined) {
    return {
      known: false,
      reason:
        "this run does not know its own commit (no GITHUB_SHA or CI_COMMIT_SHA, and git could not read HEAD)",
    };
  }
  if (!git) return { known: false, reason: "this run cannot ask git about commits" };
  return git.isAncestor(plan.workspace, recorded, plan.commit);
}

/** Why pruning must delete nothing this run, if it must. */
function pruneBlockedReason(
  plan: SyncPlan,
  collisions: DuplicateSlugError | undefined,
  published: readonly SpecResult[],
): string | undefined {
  if (plan.repositoryIdentity === undefined) {
    return `the repository's identity is unknown, so no publish record can prove a spec is this repository's. ${noIdentity}`;
  }
  if (collisions)
    return "slug collisions leave in doubt which file each colliding slug belongs to; fix them first";
  const failed = published.filter((result) => result.status === "failed").map((result) => result.file);
  if (failed.length > 0) {
    const shown = failed.slice(0, 5).map(escapeUntrusted).join(", ");
    return `${failed.length} spec${failed.length === 1 ? "" : "s"} failed in this run (${shown}${failed.length > 5 ? ", …" : ""}), and a failed spec may be the new home of one that would be deleted (a renamed file); fix them, and the next run prunes`;
  }
  return undefined;
}

function inPathOrder(results: SpecResult[]): SpecResult[] {
  return results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function assignSlugsOf(discovery: DiscoveryResult, plan: SyncPlan): Map<string, string> {
  return assignRunSlugs(discovery, {
    slugMapping: plan.slugMapping,
    slugPrefix: plan.slugPrefix,
    filePatterns: plan.files,
    repositoryName: plan.repositoryName,
    publishedSlug: plan.review?.previewSlug,
    slugsSetting: plan.names("slugs"),
  });
}

function noSpecsError(plan: SyncPlan): DiscoveryError {
  const where = plan.files
    ? `${plan.names("files")} (${plan.files.join(", ")}) matched no OpenAPI document`
    : `no OpenAPI document was found in ${plan.workspace}`;
  return new DiscoveryError(
    `Nothing to publish: ${where}. Check that the job checks out the repository (actions/checkout on GitHub) before this step, and that each spec has a top-level \`openapi: "3.x"\` or \`swagger: "2.0"\`; set ${plan.names("files")} to your specs' paths or globs if they live elsewhere.`,
  );
}

function logPlan(logger: Logger, mode: SyncMode, targets: readonly PublishTarget[]): void {
  logger.group(`Plan (${mode}): ${targets.length} spec${targets.length === 1 ? "" : "s"}`, () => {
    for (const target of targets) logger.info(escapeUntrusted(targetLine(target)));
  });
}

/**
 * The previews derivable from the files now (slug by file), then those only an earlier run recorded in
 * the review's comment. Only this review's preview slugs are ever deleted: anything else a record names
 * is left alone, with a warning.
 */
function previewsToDelete(
  derived: readonly [string, string][],
  recorded: readonly string[],
  review: ReviewTarget | undefined,
  logger: Logger,
): PreviewToDelete[] {
  if (review === undefined) return [];
  const fileBySlug = new Map<string, string | undefined>(derived.map(([file, slug]) => [slug, file]));
  for (const slug of recorded) {
    if (fileBySlug.has(slug)) continue;
    if (review.isOwnPreview(slug)) fileBySlug.set(slug, undefined);
    else {
      logger.warning(
        `The ${review.commentLabel} records ${JSON.stringify(escapeUntrusted(slug))}, which is not a preview slug of ${review.label} (…${review.previewSuffix}): it is not deleted.`,
      );
    }
  }
  return [...fileBySlug].map(([slug, file]) => ({ slug, file }));
}
