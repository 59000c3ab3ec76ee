import pLimit from "p-limit";
import { DiscoveryError, type DiscoveryResult, discoverSpecs } from "../discovery/index.ts";
import type { Logger } from "../logger.ts";
import {
  type BaseSide,
  type ChangeComparer,
  entrypointDocument,
  openBaseSide,
  specChangeLine,
  specChanges,
} from "../review/change-review.ts";
import type { Spec } from "../service/types.ts";
import type { PublishTarget } from "../shaping/audiences.ts";
import { DuplicateSlugError } from "../slugs/errors.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { checkOne } from "./check.ts";
import { deletePreviews, type PreviewToDelete } from "./cleanup.ts";
import { firstContact, listAllSpecs } from "./first-contact.ts";
import { limitConcurrency } from "./limit.ts";
import { resolveOrganizationId } from "./organization.ts";
import { ownerKey } from "./ownership.ts";
import { type ProgressListener, type StreamedSpec, streamSpecs } from "./pipeline.ts";
import type { ReviewTarget, SyncPlan } from "./plan.ts";
import { DEFAULT_POLL_SCHEDULE } from "./poll-schedule.ts";
import type { Clock, Git, ReviewThread, RunService, SpecService, SyncMode } from "./ports.ts";
import { assignRunSlugs, isBroken, prepareFile, type SpecFile, specFilesOf } from "./prepare.ts";
import type { PreparedSpec } from "./prepared.ts";
import { pruneSpecs, type SpecLister } from "./prune.ts";
import { formatDuration, uploadOne } from "./publish.ts";
import { recordedFileIn } from "./recorded-file.ts";
import type { SpecChanges, SpecResult } from "./result.ts";
import {
  fileDigestOf,
  type HeldVersion,
  readHeldVersion,
  UNCHANGED_READ_BUDGET_MS,
  unchangedFileResult,
  unchangedResult,
} from "./skip-unchanged.ts";
import { BatchedStateReader, type StateReader } from "./state-reads.ts";
import { collisionResults, notStartedResult, stoppedRunResults, stopReason } from "./stopped.ts";
import { runTargets, slugsByFile, targetLine } from "./targets.ts";

export interface SyncPorts {
  /** The service, for a run with a token; undefined without one (check mode only). */
  createService: ((deadline: number) => RunService) | undefined;
  /** The review's comment or note, when the run previews a pull or merge request and may write it. */
  openReview?: ((deadline: number) => ReviewThread | undefined) | undefined;
  clock: Clock;
  logger: Logger;
  /** Told as specs move through the pipeline, for a live display. */
  progress?: ProgressListener | undefined;
  /** Classifies API changes, for the change review of previews. */
  comparer?: ChangeComparer | undefined;
  /** Reads the review's base commit; without it, specs are compared with their published versions. */
  git?: Git | undefined;
  /**
   * The host's stop (the CLI's on SIGINT or SIGTERM): once aborted, no spec starts (each left is
   * skipped, "Not started: <reason>"), those started finish under the run's deadline as always, and the
   * run ends there — no pruning, no review comment — reporting `stoppedBy: stop.reason`.
   */
  stop?: AbortSignal | undefined;
}

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
}

export interface ChangeReviewReport {
  /** What the specs were compared with, and why not the base commit when it could not be used. */
  against: "base commit" | "published version";
  fallbackReason?: string;
  /** Spec files the base had and the head no longer has: each a breaking change. */
  removedSpecs: string[];
  /** Set when `fail-on-breaking` is on and a breaking change not allowed was found: fails the run. */
  failure?: string;
}

/** Lines of the change review's failure message; the rest are counted (the comment lists them). */
const MAX_FAILURE_LINES = 20;
/** How long review calls may go on after the run's deadline, to put the results in the comment. */
const REVIEW_GRACE_MS = 10_000;
/** Specs between their read and the end of their upload, per request slot: keeps the uploads busy. */
const SPECS_AHEAD_PER_SLOT = 2;

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
  const found = await discover(plan, ports.logger, slugsByFile, timings);
  // One deadline for the whole network phase: every GitBook request, retry and wait ends by it; the
  // review comment gets a few seconds more to report the results.
  const deadline = ports.clock.now() + plan.timeoutSeconds * 1000;
  const client = ports.createService?.(deadline);
  let baseSide: BaseSide | undefined;
  try {
    const link = await connect(plan, ports, client, deadline, timings);
    const owner = ownerKey({ repository: plan.repositoryIdentity, slugPrefix: plan.slugPrefix });
    let results: SpecResult[];
    if (plan.mode === "cleanup") results = await cleanUp(plan, ports.logger, found, link, timings);
    else {
      baseSide = await openBase(plan, ports, link);
      results = await publish(plan, ports, found, link, { baseSide, owner }, timings);
    }
    if (ports.stop?.aborted) return stoppedByHost(ports.stop, link, results);
    results = [...results, ...(await prune(plan, ports, found, link, owner, timings))];
    return await finish(plan, ports, found, link, baseSide, results, timings);
  } finally {
    await baseSide?.dispose();
    await client?.close();
  }
}

/** A run its host stopped: what it did, each spec it did not start skipped; nothing more is done. */
function stoppedByHost(
  stop: AbortSignal,
  link: Link,
  results: SpecResult[],
): Omit<SyncReport, "mode" | "durationMs"> {
  return {
    organizationId: link.organizationId,
    results,
    stoppedReason: stopReason(stop),
    stoppedBy: stop.reason,
  };
}

/** Discovery and slugs: the files the run knows of, each with its slug; collisions fail their own files. */
async function discover(
  plan: SyncPlan,
  logger: Logger,
  slugsByFile: Map<string, string>,
  timings: Timings,
): Promise<Found> {
  const discovery = await timings.timed("discovery", () =>
    discoverSpecs({
      workspace: plan.workspace,
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
  if (plan.mode !== "cleanup") logPlan(logger, plan.mode, targets);
  return { discovery, allFiles, slugs, collisions, collided, files, targets };
}

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
  return timings.timed("cleanup", () =>
    deletePreviews(previews, { orgId: connection.organizationId, service: connection.service, logger }),
  );
}

/** A preview's base side for the change review: the base commit's specs, or the published versions. */
async function openBase(plan: SyncPlan, ports: SyncPorts, link: Link): Promise<BaseSide | undefined> {
  if (plan.mode !== "preview" || !plan.changeReview || !ports.comparer) return undefined;
  const { client, connection } = link;
  return openBaseSide({
    workspace: plan.workspace,
    commit: plan.changeReview.baseCommit,
    patterns: plan.files,
    exclude: plan.exclude,
    git: ports.git,
    published: (slug) =>
      connection && client
        ? client.getLatestVersionContent(connection.organizationId, slug).then(entrypointDocument)
        : Promise.resolve(undefined),
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
          knownSpecs: held?.size,
          onListingFailed: (reason) =>
            logger.debug(
              `Listing the organization's specs failed (${reason}); each spec is polled on its own.`,
            ),
        })
      : undefined;
  const stageConnection = connection && { ...connection, held, readOnly: plan.mode === "check", states };
  const unrecorded: string[] = [];
  const byPath = new Map(found.files.map((file) => [file.path, file]));
  const warned = new Set<string>();
  const streamed = found.targets.flatMap((target) => {
    const file = byPath.get(target.file);
    if (file === undefined) return [];
    // A file's own warnings once, with its first publication (audiences publish one file several times).
    const fileWarnings = !warned.has(target.file);
    warned.add(target.file);
    const run = { deadline: link.deadline, connection: stageConnection, comparing, owner, unrecorded };
    return [streamedSpec(file, { target, fileWarnings }, plan, ports, run)];
  });
  const label = plan.mode === "check" || !connection ? "checks" : "publishing";
  const results = await timings.timed(label, () =>
    streamSpecs(streamed, {
      inFlight: plan.concurrency * SPECS_AHEAD_PER_SLOT,
      logger,
      progress: ports.progress,
    }),
  );
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
  owner: string,
  timings: Timings,
): Promise<SpecResult[]> {
  const { client, connection } = link;
  if (!plan.prune || !client || !connection || !plan.slugPrefix) return [];
  if (plan.mode !== "publish" && plan.mode !== "check") return [];
  const prefix = plan.slugPrefix;
  return timings.timed("pruning", () =>
    pruneSpecs({
      orgId: connection.organizationId,
      prefix,
      keep: new Set(found.targets.map((target) => target.slug)),
      owner,
      blocked: pruneBlockedReason(plan, found.collisions),
      recordedFile: (recorded) => recordedFileIn(plan.workspace, recorded, slugsByFile(found.targets)),
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
      ? changeReviewReport(
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

interface Connection {
  service: SpecService;
  organizationId: string;
  /** The organization's specs by slug, listed once before uploads, for skipping unchanged ones. */
  held?: ReadonlyMap<string, Spec> | undefined;
  /** Check mode: only looks up whether each slug exists. */
  readOnly?: boolean;
  /** Reads the states of the specs the run waits on, batched. */
  states?: StateReader | undefined;
}

/** What every spec's work shares in one run. */
interface SpecRun {
  deadline: number;
  connection: Connection | undefined;
  comparing: Comparing | undefined;
  owner: string;
  /** Files whose text could not take a publish record: said once, at the end. */
  unrecorded: string[];
}

/**
 * One spec's work, for the streaming pipeline: read, validate and bundle it, then upload it (or, in
 * check mode or without a token, look it up). Its text is let go once the upload ends. When an unchanged
 * spec may be skipped, its file's bytes and what GitBook holds come first: a file whose bytes GitBook's
 * record proves the same is reported unchanged without being parsed, checked or bundled.
 */
function streamedSpec(
  file: SpecFile,
  { target, fileWarnings }: { target: PublishTarget; fileWarnings: boolean },
  plan: SyncPlan,
  ports: SyncPorts,
  run: SpecRun,
): StreamedSpec {
  const { slug } = target;
  return {
    file: file.path,
    slug,
    bytes: isBroken(file) ? 0 : file.bytes,
    stage: async (log) => {
      if (ports.stop?.aborted) {
        const result = notStartedResult(file.path, slug, ports.stop);
        return async () => result;
      }
      const { connection, comparing } = run;
      // A shaped document is not its file's bytes: only its text, after the local steps, can be compared.
      const held = target.steps ? undefined : await heldFirst(file, slug, plan, ports.clock, run, log);
      if (held?.result) return async () => held.result as SpecResult;
      // The parsed document is kept only for the review's comparison: it lives through the upload's wait.
      const prepared = await prepareFile(
        file,
        slug,
        {
          workspace: plan.workspace,
          sourceUrlFor: plan.sourceUrlFor,
          keepDocument: comparing !== undefined,
          owner: run.owner,
          validationWarnings: plan.validationWarnings,
          shaping: target.steps,
          fileWarnings,
        },
        log,
      );
      const changes =
        comparing && prepared.document !== undefined
          ? await changesOf(target, prepared.document(), comparing, log)
          : undefined;
      const checked = { ...run, held: held?.read };
      if (changes) {
        const rest = await uploadOrCheck(prepared, connection, plan, ports, checked, log);
        return async () => ({ ...(await rest()), changes });
      }
      return uploadOrCheck(prepared, connection, plan, ports, checked, log);
    },
  };
}

/**
 * Before any local step, when the run may skip an unchanged spec, needs nothing else from its document
 * and GitBook may hold it: the digest of the file's bytes and what GitBook holds for its slug (the one
 * read the unchanged check makes anyway). `result` when the record proves the file unchanged; else
 * `read`, for the check that follows the local steps. Undefined when the run cannot skip it, or the
 * bytes cannot tell (the local steps then read the file and say why).
 */
async function heldFirst(
  file: SpecFile,
  slug: string,
  plan: SyncPlan,
  clock: SyncPorts["clock"],
  run: SpecRun,
  log: Logger,
): Promise<{ result?: SpecResult; read: HeldVersion } | undefined> {
  const { connection } = run;
  if (!plan.skipUnchanged || !connection || connection.readOnly || plan.sourceUrlFor) return undefined;
  if (run.comparing || isBroken(file)) return undefined;
  // A spec the listing does not hold is uploaded: its file is not read twice.
  if (connection.held && !connection.held.has(slug)) return undefined;
  const digest = fileDigestOf(file);
  if (digest === undefined) return undefined;
  const read = await readHeldVersion(slug, {
    orgId: connection.organizationId,
    service: connection.service,
    clock,
    deadline: run.deadline,
    held: connection.held,
  });
  const result = unchangedFileResult({ path: file.path, slug, owner: run.owner, digest }, read, log);
  return result ? { result, read } : { read };
}

interface Comparing {
  side: BaseSide;
  comparer: ChangeComparer;
  allowed: readonly string[];
}

async function changesOf(
  target: PublishTarget,
  document: unknown,
  comparing: Comparing,
  log: Logger,
): Promise<SpecChanges> {
  const { file, baseSlug, steps } = target;
  // The same publication on both sides: the base shaped as the head is (an audience with its audience).
  const before = await comparing.side.documentOf(file, baseSlug, steps);
  return specChanges(before, document, comparing.side.against, comparing.comparer, comparing.allowed, {
    file,
    log,
  });
}

async function uploadOrCheck(
  prepared: PreparedSpec,
  connection: Connection | undefined,
  plan: SyncPlan,
  ports: SyncPorts,
  run: { deadline: number; unrecorded: string[]; held?: HeldVersion | undefined },
  log: Logger,
): Promise<() => Promise<SpecResult>> {
  const { deadline } = run;
  if (!connection || connection.readOnly) {
    const lookup = connection && { orgId: connection.organizationId, service: connection.service };
    const result = await checkOne(prepared, lookup, log);
    return async () => result;
  }
  const recorded = prepared.problems.length === 0 ? prepared.recorded?.() : undefined;
  if (recorded && !recorded.record) {
    run.unrecorded.push(prepared.file);
    log.warning(
      `${escapeUntrusted(prepared.file)}: no publish record could be added (${recorded.problem}): it is uploaded on every run and never pruned.`,
      { file: prepared.file },
    );
  }
  if (plan.skipUnchanged && recorded?.record) {
    const unchanged = await unchangedResult(prepared, {
      orgId: connection.organizationId,
      service: connection.service,
      logger: log,
      clock: ports.clock,
      deadline,
      held: connection.held,
      read: run.held,
    });
    if (unchanged) return async () => unchanged;
  }
  const { document: _compared, ...toUpload } = prepared;
  return uploadOne(toUpload, {
    orgId: connection.organizationId,
    service: connection.service,
    clock: ports.clock,
    schedule: DEFAULT_POLL_SCHEDULE,
    wait: plan.wait,
    deadline,
    logger: log,
    timeoutSetting: plan.names("timeout"),
    states: connection.states,
  });
}

function listed(held: ReadonlyMap<string, Spec>): SpecLister {
  return {
    async *iterateSpecs() {
      yield* held.values();
    },
  };
}

/**
 * The organization's specs by slug, in one paged listing: a spec GitBook does not hold is uploaded
 * without a read, and one it holds needs only its version's content. Undefined when the listing fails:
 * each spec is then read on its own.
 */
function changeReviewReport(
  side: BaseSide,
  results: readonly SpecResult[],
  headFiles: ReadonlySet<string>,
  options: NonNullable<SyncPlan["changeReview"]>,
): ChangeReviewReport {
  const removedSpecs = side.removedSince(headFiles);
  const report: ChangeReviewReport = {
    against: side.against,
    ...(side.fallbackReason ? { fallbackReason: side.fallbackReason } : {}),
    removedSpecs,
  };
  if (!options.failOnBreaking) return report;
  // A file published as several audiences is named with the slug of the one that changed.
  const perFile = new Map<string, number>();
  for (const result of results) perFile.set(result.file, (perFile.get(result.file) ?? 0) + 1);
  const name = (result: SpecResult) =>
    escapeUntrusted((perFile.get(result.file) ?? 0) > 1 ? `${result.file} → ${result.slug}` : result.file);
  const breaking = [
    ...results.flatMap((result) =>
      (result.changes?.breaking ?? []).map(
        (change) => `- ${name(result)}: ${escapeUntrusted(specChangeLine(change))}`,
      ),
    ),
    ...removedSpecs.map((file) => `- ${escapeUntrusted(file)}: the spec was removed`),
  ];
  const unreviewed = options.failOnUnreviewed
    ? results.flatMap((result) =>
        result.changes?.notReviewed === undefined
          ? []
          : [`- ${name(result)}: not reviewed: ${escapeUntrusted(result.changes.notReviewed)}`],
      )
    : [];
  if (breaking.length + unreviewed.length === 0) return report;
  const reasons = [
    ...(breaking.length > 0
      ? [
          `${breaking.length} breaking API change${breaking.length === 1 ? "" : "s"} (fail-on-breaking is on; accept one on purpose with breaking-allowed)`,
        ]
      : []),
    ...(unreviewed.length > 0
      ? [
          `${unreviewed.length} spec${unreviewed.length === 1 ? "" : "s"} not reviewed (fail-on-unreviewed is on)`,
        ]
      : []),
  ];
  const lines = [...unreviewed, ...breaking];
  const shown = lines.slice(0, MAX_FAILURE_LINES);
  if (lines.length > shown.length)
    shown.push(
      `- … and ${lines.length - shown.length} more: the review comment, the summary and \`gitbook-openapi diff\` list them all`,
    );
  return { ...report, failure: `${reasons.join("; ")}:\n${shown.join("\n")}` };
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

/** Why pruning must delete nothing this run, if it must. */
function pruneBlockedReason(plan: SyncPlan, collisions: DuplicateSlugError | undefined): string | undefined {
  if (plan.repositoryIdentity === undefined) {
    return "the repository's identity is unknown, so no publish record can prove a spec is this repository's (run from a clone whose `origin` remote is set, or on GitHub Actions or GitLab CI)";
  }
  if (collisions)
    return "slug collisions leave in doubt which file each colliding slug belongs to; fix them first";
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
