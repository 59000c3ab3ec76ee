/**
 * One spec's work in a run, for the streaming pipeline (run.ts `publish`): what GitBook holds read first
 * when that can spare the local steps, then read → validate → bundle → shape, its changes reviewed, and
 * its upload (or, in check mode or without a token, its lookup).
 */

import type { BaseSide } from "../change-review/change-review.ts";
import { PackedDocument } from "../change-review/packed-document.ts";
import type { Logger } from "../logger.ts";
import type { SyncPlan } from "../plan/plan.ts";
import type { ChangeComparer, RememberedVersion, SpecService, SyncPorts } from "../ports.ts";
import { isBroken, prepareFile, type SpecFile } from "../prepare/prepare.ts";
import type { Preparation, PreparationPool, PrepareLimits } from "../prepare/prepare-worker.ts";
import type { PreparedSpec } from "../prepare/prepared.ts";
import { checkOne } from "../publish/check.ts";
import { DEFAULT_POLL_SCHEDULE } from "../publish/poll-schedule.ts";
import { uploadOne } from "../publish/publish.ts";
import { resultOf } from "../publish/spec-results.ts";
import type { StateReader } from "../publish/state-reads.ts";
import type { SpecChanges, SpecResult } from "../result.ts";
import type { Spec } from "../service/types.ts";
import type { PublishTarget } from "../shaping/publish-targets.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import {
  fileDigestOf,
  readHeldVersion,
  unchangedFileResult,
  unchangedResult,
} from "../unchanged/skip-unchanged.ts";
import type { HeldVersion } from "../unchanged/unchanged.ts";
import type { StreamedSpec } from "./pipeline.ts";
import { notStartedResult, stopReason } from "./stopped.ts";

/**
 * Specs up to this size, without shaping, are prepared in the main thread when their steps are bounded
 * by their size (../prepare/prepare.ts `boundedOnly`): at the slowest rate measured (0.7 ms per KiB, on a busy
 * 2-core machine) that blocks the event loop under 200 ms. The others go to a worker.
 */
export const IN_THREAD_BYTES = 256 * 1024;

export interface Connection {
  service: SpecService;
  organizationId: string;
  /** The organization's specs by slug, listed once before uploads, for skipping unchanged ones. */
  held?: ReadonlyMap<string, Spec> | undefined;
  /** Check mode: only looks up whether each slug exists. */
  readOnly?: boolean;
  /** Reads the states of the specs the run waits on, batched. */
  states?: StateReader | undefined;
  /** What earlier runs uploaded, by slug (the re-run cache), when the run may trust it. */
  remembered?: ReadonlyMap<string, RememberedVersion> | undefined;
  /** Told of each version whose content proved it holds its spec's text, for the next run's cache. */
  remember?: ((slug: string, upload: RememberedVersion) => void) | undefined;
}

/** What every spec's work shares in one run. */
export interface SpecRun {
  deadline: number;
  connection: Connection | undefined;
  comparing: Comparing | undefined;
  owner: string;
  /** Files whose text could not take a publish record: said once, at the end. */
  unrecorded: string[];
  /** Where the local steps run (../prepare/prepare-worker.ts); in this thread without it. */
  preparation?: PreparationPool | undefined;
}

/**
 * One spec's work, for the streaming pipeline: read, validate and bundle it, then upload it (or, in
 * check mode or without a token, look it up). Its text is let go once the upload ends. When an unchanged
 * spec may be skipped, its file's bytes and what GitBook holds come first: a file whose bytes GitBook's
 * record proves the same is reported unchanged without being parsed, checked or bundled.
 */
export function streamedSpec(
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
    stage: async (log, holds) => {
      if (ports.stop?.aborted) {
        const result = notStartedResult(file.path, slug, ports.stop);
        return async () => result;
      }
      const { connection, comparing } = run;
      // A shaped document is not its file's bytes: only its text, after the local steps, can be compared.
      const held = target.steps ? undefined : await heldFirst(file, slug, plan, ports.clock, run, log);
      if (held?.result) return async () => held.result as SpecResult;
      const prepared = await prepareSpec(file, { target, fileWarnings }, plan, ports, run, log);
      if (!("problems" in prepared)) return async () => prepared;
      holds?.(heldBytes(prepared, file));
      let changes: SpecChanges | undefined;
      if (comparing && prepared.document !== undefined) {
        // The comparison runs in its own worker under its own budget; the run's stop and deadline end
        // the wait for it all the same.
        const limits = { deadline: run.deadline, now: () => ports.clock.now(), stop: ports.stop, log };
        const reading = { preparation: run.preparation, limits };
        const work = changesOf(target, prepared.document(), comparing, log, reading).then(
          (found): Promise<typeof found> | typeof found =>
            "ended" in found ? found : placed(found, plan.workspace, file.path, comparing.side),
        );
        const reviewed = await unlessEnded(work, {
          stop: ports.stop,
          msLeft: run.deadline - ports.clock.now(),
        });
        // Ended at the same moment, the base's reading in the worker names its step better: a turn of
        // the loop lets it say so.
        const outcome = reviewed.ended
          ? ((await settledSoon(work)) ?? { ended: reviewed.ended, at: "reviewing its changes" })
          : reviewed.value;
        if ("ended" in outcome) {
          const result = endedResult(outcome.ended, outcome.at, file.path, slug, plan, ports, log);
          return async () => result;
        }
        changes = outcome;
      }
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
 * What a prepared spec holds until its upload ends, for the memory bound: the text it uploads (a bundle
 * can be far more than its root file) and the document kept for its comparison (packed: its bytes; built
 * in this thread: counted as its text again). A spec that uploads nothing keeps its file's weight.
 */
function heldBytes(prepared: PreparedSpec, file: SpecFile): number {
  const fileBytes = isBroken(file) ? 0 : file.bytes;
  const recorded = prepared.problems.length === 0 ? prepared.recorded?.() : undefined;
  const text = recorded?.text.length ?? fileBytes;
  const document = prepared.document?.();
  if (document === undefined) return text;
  return text + (document instanceof PackedDocument ? document.bytes.byteLength : text);
}

/**
 * The local steps of one spec: in a worker of the run's pool, ended at the run's deadline (the spec
 * times out, naming the step it was in) or on its host's stop; in this thread when the run has no pool.
 * A result when the spec ended there; a prepared spec otherwise.
 */
async function prepareSpec(
  file: SpecFile,
  { target, fileWarnings }: { target: PublishTarget; fileWarnings: boolean },
  plan: SyncPlan,
  ports: SyncPorts,
  run: SpecRun,
  log: Logger,
): Promise<PreparedSpec | SpecResult> {
  const { slug } = target;
  // The parsed document is kept only for the review's comparison. The publish record is made only for
  // an upload (or its skip): a check would make it for nothing.
  const uploads = run.connection !== undefined && run.connection.readOnly !== true;
  const options = {
    workspace: plan.workspace,
    keepDocument: run.comparing !== undefined,
    owner: uploads ? run.owner : undefined,
    commit: plan.commit,
    strict: plan.strict,
    shaping: target.steps,
    fileWarnings,
  };
  // Small unshaped specs stay in this thread when their steps are bounded by their size (measured in
  // docs/design/stoppable-preparation.md): a worker's start and the copies would cost more than they do.
  // In a run of many, the lane's worker takes some of them while this thread prepares the others.
  const { preparation } = run;
  const here = { ...options, sourceUrlFor: plan.sourceUrlFor };
  if (!preparation || isBroken(file)) return prepareFile(file, slug, here, log);
  const sent = { ...options, sourceUrl: plan.sourceUrlFor?.(file.path), uploads };
  const limits = { deadline: run.deadline, now: () => ports.clock.now(), stop: ports.stop, log };
  let outcome: Preparation | undefined;
  if (!target.steps && file.bytes <= IN_THREAD_BYTES) {
    const boundedOnly = { maxBytes: IN_THREAD_BYTES };
    outcome = await preparation.prepareInLane(file, slug, { ...sent, boundedOnly }, limits);
    if (outcome === undefined) {
      const prepared = await prepareFile(file, slug, { ...here, boundedOnly }, log);
      if (!prepared.handOff) return prepared;
    } else if (outcome.kind === "prepared" && outcome.spec.handOff) outcome = undefined;
  }
  outcome ??= await preparation.prepare(file, slug, sent, limits);
  if (outcome.kind === "prepared") return outcome.spec;
  const { phase } = outcome;
  if (outcome.kind === "crashed") {
    const where = phase === undefined ? "before its local steps started" : `while ${phase}`;
    const message = outcome.outOfMemory
      ? `Its local steps stopped ${where}: ${outcome.reason}. Make the spec or its overlays smaller; the other specs went on.`
      : `Its local steps failed ${where}: ${outcome.reason}. This is a fault of gitbook-openapi: please report it. The other specs went on.`;
    log.error(escapeUntrusted(`${file.path}: ${message}`), { file: file.path });
    const errorCode = outcome.outOfMemory ? "OUT_OF_MEMORY" : "INTERNAL_ERROR";
    return { file: file.path, slug, status: "failed", errorCode, errors: [message] };
  }
  if (outcome.by === "stop" && phase === undefined && ports.stop)
    return notStartedResult(file.path, slug, ports.stop);
  return endedResult(outcome.by, phase, file.path, slug, plan, ports, log);
}

/**
 * A spec left in the middle of its work: the run's deadline passed (timed out) or its host stopped it
 * (skipped), in `phase`; nothing of it was uploaded.
 */
function endedResult(
  by: "timeout" | "stop",
  phase: string | undefined,
  file: string,
  slug: string,
  plan: SyncPlan,
  ports: SyncPorts,
  log: Logger,
): SpecResult {
  const where = phase === undefined ? "before its local steps started" : `while ${phase}`;
  if (by === "stop") {
    const reason = ports.stop ? stopReason(ports.stop) : "the run was stopped";
    return { file, slug, status: "skipped", errors: [`Stopped ${where}: ${reason}`] };
  }
  const message = `The run's timeout ran out ${where}, before its local steps ended; nothing was uploaded. Raise ${plan.names("timeout")}, or make the spec or its overlays lighter.`;
  log.error(escapeUntrusted(`${file}: ${message}`), { file });
  return { file, slug, status: "timed-out", errorCode: "LOCAL_TIMEOUT", errors: [message] };
}

/** A spec's review that ended by itself within a turn of the loop (see `changesOf`), if it did. */
async function settledSoon(
  work: Promise<SpecChanges | { ended: "timeout" | "stop"; at: string }>,
): Promise<{ ended: "timeout" | "stop"; at: string } | undefined> {
  const turn = new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)));
  const first = await Promise.race([work.catch(() => undefined), turn]);
  return first && "ended" in first ? first : undefined;
}

/** `work`'s value, unless the run's stop or its deadline (`msLeft` from now) comes first. */
async function unlessEnded<T>(
  work: Promise<T>,
  { stop, msLeft }: { stop: AbortSignal | undefined; msLeft: number },
): Promise<{ ended?: undefined; value: T } | { ended: "timeout" | "stop" }> {
  if (stop?.aborted) return { ended: "stop" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const ended = new Promise<{ ended: "timeout" | "stop" }>((resolve) => {
    timer = setTimeout(() => resolve({ ended: "timeout" }), Math.max(0, msLeft));
    onStop = () => resolve({ ended: "stop" });
    stop?.addEventListener("abort", onStop, { once: true });
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), ended]);
  } finally {
    clearTimeout(timer);
    if (onStop) stop?.removeEventListener("abort", onStop);
  }
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
    remembered: connection.remembered,
  });
  const fileFacts = { path: file.path, slug, owner: run.owner, digest };
  const result = unchangedFileResult(fileFacts, read, log, connection.remember);
  return result ? { result, read } : { read };
}

/**
 * The listed changes with the place the head's files write each, and for what the head no longer has,
 * the place in the base commit's files when the review read them (change-review/change-places.ts).
 */
async function placed(
  changes: SpecChanges,
  workspace: string,
  file: string,
  side: BaseSide,
): Promise<SpecChanges> {
  const listed = changes.breaking.length + changes.allowed.length + changes.other.length;
  if (listed === 0 || changes.against === "nothing") return changes;
  const { placedChanges, readSpecSources } = await import("../change-review/change-places.ts");
  const base = side.fileOf?.(file);
  return placedChanges(
    changes,
    await readSpecSources(workspace, file),
    base && base.skipped === undefined ? () => readSpecSources(base.base, file) : undefined,
  );
}

export interface Comparing {
  side: BaseSide;
  comparer: ChangeComparer;
  allowed: readonly string[];
}

/**
 * The spec's changes against the review's base. The base commit's version is read, bundled and shaped
 * in the preparation's worker when the run has one (its overlays may block as the head's may): ended
 * there by the run's deadline or stop, the spec ends too.
 */
async function changesOf(
  target: PublishTarget,
  document: unknown,
  comparing: Comparing,
  log: Logger,
  reading: { preparation: PreparationPool | undefined; limits: PrepareLimits },
): Promise<SpecChanges | { ended: "timeout" | "stop"; at: string }> {
  const { file, baseSlug, steps } = target;
  const { side } = comparing;
  // The review's code loads with the first spec a run compares (./run.ts `openBase`).
  const { notReviewed, reviewChanges, specChanges } = await import("../change-review/change-review.ts");
  // The same publication on both sides: the base shaped as the head is (an audience with its audience).
  const where = side.fileOf?.(file);
  if (where && reading.preparation) {
    const read = await reading.preparation.readBase(where, steps, reading.limits);
    if (read.kind === "ended") return { ended: read.by, at: "reading its base commit's version" };
    await reading.preparation.retireNow();
    if (read.kind === "crashed") return notReviewed(side.against, read.reason, { file, log });
    return specChanges(read.document, document, side.against, comparing.comparer, comparing.allowed, {
      file,
      log,
    });
  }
  return reviewChanges(
    side,
    { file, slug: baseSlug, steps },
    document,
    comparing.comparer,
    comparing.allowed,
    {
      file,
      log,
    },
  );
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
  if (recorded && recorded.record === undefined && recorded.refused) {
    const message = `${prepared.file}: ${recorded.problem}.`;
    log.error(escapeUntrusted(message), { file: prepared.file });
    const result: SpecResult = {
      ...resultOf(prepared),
      status: "failed",
      errorCode: "FOREIGN_RECORD",
      errors: [message],
    };
    return async () => result;
  }
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
      remembered: connection.remembered,
      remember: connection.remember,
      read: run.held,
    });
    if (unchanged) return async () => unchanged;
  }
  const { document: _compared, ...toUpload } = prepared;
  return uploadOne(toUpload, {
    orgId: connection.organizationId,
    service: connection.service,
    clock: ports.clock,
    schedule: ports.polling?.schedule ?? DEFAULT_POLL_SCHEDULE,
    wait: plan.wait,
    deadline,
    logger: log,
    timeoutSetting: plan.names("timeout"),
    states: connection.states,
  });
}
