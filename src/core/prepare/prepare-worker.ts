/**
 * Each spec's local steps (prepare.ts `prepareFile`) in a worker thread under a heap limit, so that the
 * run's `timeout` and its host's stop end a spec in the middle of its work. The worker runs this very
 * file (`import.meta.main`: {@link servePreparation}). Why and measured: docs/design/stoppable-preparation.md.
 */
import { fileURLToPath } from "node:url";
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { BaseFile } from "../change-review/base-document.ts";
import { PackedDocument, packDocument, transferable } from "../change-review/packed-document.ts";
import type { DiscoveredSpec } from "../discovery/index.ts";
import { type LogEntry, type Logger, MemoryLogger } from "../logger.ts";
import type { RecordedText } from "../ownership/ownership.ts";
import type { ShapingSteps } from "../shaping/publish-targets.ts";
import { prepareFile } from "./prepare.ts";
import type { PreparedSpec, PreparePhase } from "./prepared.ts";

/** What the workers are told to do; other worker threads (a test runner's) carry other data. */
const PREPARE_KIND = "gitbook-openapi:prepare";

/**
 * The heap of one preparation worker, in MiB: a 32 MiB spec (the largest read) parses to a few hundred
 * MiB and its bundle and shaped copy to as much again; past this, the spec fails instead of the run.
 * One below V8's default maximum (2,048 on 64-bit), from which V8 lets the old generation grow to four
 * times what is live between full GCs instead of twice: the APIs-guru check's worker heap reached 241
 * MiB at 2,048, 87 at 2,047 (docs/design/memory.md).
 */
export const PREPARE_HEAP_MB = 2047;

/**
 * The young generation of the worker's heap, in MiB. V8's default let the worker's heap and the main
 * thread's together peak 60-85 MB above the main thread alone on four large specs; with 8 MiB the run
 * peaks 40-50 MB *below* what it did before the worker, for about 0.1 s more CPU
 * (docs/design/stoppable-preparation.md).
 */
export const PREPARE_YOUNG_MB = 8;

/**
 * Workers preparing specs at once. One, as the main thread was before: two ran four large specs no
 * faster on a 2-core machine and took 130-180 MB more at their peak, each holding a parsed document
 * (docs/design/stoppable-preparation.md).
 */
export const PREPARING_WORKERS = 1;

/** What one spec's preparation needs, as plain data (it crosses to the worker). */
export interface PrepareJobOptions {
  workspace: string;
  strict?: boolean | undefined;
  keepDocument?: boolean;
  /** `source: url`: the address GitBook fetches, made by the run (a function cannot cross). */
  sourceUrl?: string | undefined;
  /**
   * False in a check, which uploads nothing: the spec's text stays in the worker (a 20 MB spec's text
   * crossed to the main thread for nothing, at the run's peak; docs/design/memory.md).
   */
  uploads?: boolean | undefined;
  owner?: string | undefined;
  shaping?: ShapingSteps | undefined;
  fileWarnings?: boolean | undefined;
  /** Only a spec whose steps its size bounds is worked on; another comes back `handOff` (prepare.ts). */
  boundedOnly?: { maxBytes: number } | undefined;
}

/** How a job in the worker ended: with its value, or without (`ended`, `crashed`). */
export type Outcome<Done> =
  | Done
  /**
   * Ended from outside: the run's deadline passed (`timeout`) or its host stopped it (`stop`), in
   * `phase`; undefined when it had not started (it waited for a worker).
   */
  | { kind: "ended"; by: "timeout" | "stop"; phase: PreparePhase | undefined }
  /**
   * Ended from inside: an exception the steps did not expect, the worker's crash, or (`outOfMemory`)
   * the worker's heap limit reached.
   */
  | { kind: "crashed"; phase: PreparePhase | undefined; reason: string; outOfMemory?: boolean };

/** How a spec's preparation ended. */
export type Preparation = Outcome<{ kind: "prepared"; spec: PreparedSpec }>;

/**
 * How reading a spec's document at the review's base ended: the document packed (it is only compared,
 * in another worker), undefined when the base proved not to have the spec.
 */
export type BaseReading = Outcome<{ kind: "read"; document: PackedDocument | undefined }>;

export interface PrepareLimits {
  /** Epoch ms, on `now`'s clock: the spec ends as timed out then. */
  deadline: number;
  now: () => number;
  stop?: AbortSignal | undefined;
  /** Where the worker's log lines go, replayed in order when it ends. */
  log: Logger;
}

/** What a worker is asked to do: prepare a spec, or read its document at the review's base. */
type Task =
  | { task: "prepare"; file: DiscoveredSpec; slug: string; options: PrepareJobOptions }
  | { task: "base"; where: BaseFile; steps: ShapingSteps | undefined };

type Job = Task & { id: number };

/** A prepared spec as it crosses back: data only, its lazy parts made, its document packed. */
interface SentSpec extends Omit<PreparedSpec, "source" | "document" | "recorded"> {
  source?: { text: string } | { url: string } | typeof CHECKED_TEXT;
  recorded?: RecordedText;
  document?: Uint8Array;
}

type Message =
  | { id: number; kind: "phase"; phase: PreparePhase }
  | { id: number; kind: "done"; value: unknown; logs: LogEntry[] }
  | { id: number; kind: "failed"; phase: PreparePhase | undefined; reason: string; logs: LogEntry[] };

interface Slot {
  worker: Worker;
  /** The job it serves, if any. */
  busy: ((message: Message) => void) | undefined;
  /** Called when the worker dies under a job (a crash, its heap). */
  died: ((reason: string, outOfMemory?: boolean) => void) | undefined;
  /** Ends the worker if it stays idle, after a large job (see {@link RETIRE_AFTER_BYTES}). */
  retire?: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The lane: a worker beside the pool's, to which small specs bounded by their size are queued
 * (`PreparationPool.prepareInLane`), so that it is never idle while the main thread is busy.
 */
interface Lane {
  worker: Worker;
  jobs: Map<number, LaneJob>;
}

interface LaneJob {
  file: string;
  limits: PrepareLimits;
  phase: PreparePhase | undefined;
  resolve(outcome: Preparation | undefined): void;
  /** Clears its deadline's timer and its stop's listener. */
  release(): void;
}

/** The run's preparation workers. */
export class PreparationPool {
  readonly #size: number;
  readonly #entry: string | URL;
  readonly #heapMb: number;
  readonly #idle: Slot[] = [];
  #running = 0;
  /** Jobs past {@link PREPARE_SLOW_MS}, no longer counted in `#running`. */
  #overdue = 0;
  readonly #slowMs: number;
  #nextId = 0;
  readonly #waiting: (() => void)[] = [];
  #closed = false;
  /** Specs queued at most in the lane's worker; 0: no lane. */
  readonly #laneDepth: number;
  #lane: Lane | undefined;
  /** Once the lane's worker ended (a stop, a deadline, a crash, the pool's close), no lane again. */
  #laneShut = false;

  constructor(
    options: {
      size?: number;
      entry?: string | URL | undefined;
      heapMb?: number;
      slowMs?: number;
      /** How many specs the lane's worker may hold queued; none (no lane) unless given. */
      laneDepth?: number | undefined;
    } = {},
  ) {
    this.#size = Math.max(1, options.size ?? PREPARING_WORKERS);
    this.#slowMs = options.slowMs ?? PREPARE_SLOW_MS;
    this.#entry = options.entry ?? fileURLToPath(import.meta.url);
    this.#heapMb = options.heapMb ?? PREPARE_HEAP_MB;
    this.#laneDepth = options.laneDepth ?? 0;
  }

  /**
   * A small spec whose steps its size bounds (`options.boundedOnly`; another comes back `handOff`), in
   * the lane's worker, while the main thread prepares others: undefined, for the caller to prepare it
   * itself, when the pool's worker is busy (one worker works beside the main thread at a time), when
   * the lane is full or shut, or when its worker ended under the spec without a stop or the deadline.
   * The pool's own jobs (shaped or handed-back specs) do not wait for the lane: a run has one only when
   * none of its specs is large (../run/run.ts `wantsLane`), and the lane takes no more while they run.
   * Measured in docs/design/stoppable-preparation.md, "The lane".
   */
  prepareInLane(
    file: DiscoveredSpec,
    slug: string,
    options: PrepareJobOptions,
    limits: PrepareLimits,
  ): Promise<Preparation | undefined> | undefined {
    if (this.#laneDepth === 0 || this.#closed || this.#running > 0 || this.#overdue > 0) return undefined;
    if (limits.stop?.aborted || limits.now() >= limits.deadline) return undefined;
    const lane = this.#lane ?? this.#startLane();
    if (!lane || lane.jobs.size >= this.#laneDepth) return undefined;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.#shutLane(lane, { id, by: "timeout" }),
        Math.max(0, limits.deadline - limits.now()),
      );
      const onStop = () => this.#shutLane(lane, { id, by: "stop" });
      limits.stop?.addEventListener("abort", onStop, { once: true });
      const release = () => {
        clearTimeout(timer);
        limits.stop?.removeEventListener("abort", onStop);
      };
      lane.jobs.set(id, { file: file.path, limits, phase: undefined, resolve, release });
      if (lane.jobs.size === 1) lane.worker.ref();
      try {
        lane.worker.postMessage({ task: "prepare", file, slug, options, id } satisfies Job);
      } catch {
        this.#shutLane(lane);
      }
    });
  }

  #startLane(): Lane | undefined {
    if (this.#laneShut) return undefined;
    let slot: Slot;
    try {
      slot = this.#start();
    } catch {
      this.#laneShut = true;
      return undefined;
    }
    slot.worker.unref();
    const lane: Lane = { worker: slot.worker, jobs: new Map() };
    this.#lane = lane;
    slot.died = () => this.#shutLane(lane);
    slot.busy = (message) => {
      const job = lane.jobs.get(message.id);
      if (!job) return;
      if (message.kind === "phase") {
        job.phase = message.phase;
        return;
      }
      lane.jobs.delete(message.id);
      if (lane.jobs.size === 0) lane.worker.unref();
      job.release();
      job.resolve(answered(message, job.limits.log, (value) => prepared(value, job.file)));
    };
    return lane;
  }

  /**
   * Ends the lane's worker for good. Each spec in it ends as its own stop or deadline says (`cause`,
   * the one that fired: a deadline not later than its own has passed too, whatever the clock reads a
   * tick before it), or comes back undefined, to be prepared again elsewhere: a crash does not say
   * which spec of the queue caused it.
   */
  #shutLane(lane: Lane, cause?: { id: number; by: "timeout" | "stop" }): Promise<unknown> | undefined {
    if (this.#lane !== lane) return undefined;
    this.#lane = undefined;
    this.#laneShut = true;
    const passed = cause?.by === "timeout" ? lane.jobs.get(cause.id)?.limits.deadline : undefined;
    for (const [id, job] of lane.jobs) {
      job.release();
      const { stop, now, deadline } = job.limits;
      const timedOut = now() >= deadline || (passed !== undefined && deadline <= passed);
      const by = cause?.id === id ? cause.by : stop?.aborted ? "stop" : timedOut ? "timeout" : undefined;
      job.resolve(by && { kind: "ended", by, phase: job.phase });
    }
    lane.jobs.clear();
    return lane.worker.terminate();
  }

  /** One spec's local steps in a worker, ended at the deadline or on a stop. */
  prepare(
    file: DiscoveredSpec,
    slug: string,
    options: PrepareJobOptions,
    limits: PrepareLimits,
  ): Promise<Preparation> {
    const large = file.bytes > RETIRE_AFTER_BYTES;
    return this.#run(
      { task: "prepare", file, slug, options },
      limits,
      (value) => prepared(value, file.path),
      () => large,
    );
  }

  /**
   * A spec's document as the review's base commit has it, shaped by the head's `steps`
   * (src/core/change-review/base-document.ts), in a worker, ended at the deadline or on a stop.
   */
  readBase(where: BaseFile, steps: ShapingSteps | undefined, limits: PrepareLimits): Promise<BaseReading> {
    return this.#run(
      { task: "base", where, steps },
      limits,
      (value) => {
        const { document } = value as { document: Uint8Array | undefined };
        return { kind: "read", document: document && new PackedDocument(document) };
      },
      (value) =>
        ((value as { document?: Uint8Array } | undefined)?.document?.byteLength ?? 0) > RETIRE_AFTER_BYTES,
    );
  }

  /** `large`: whether the job, by what it was given or gave back, was one after which its worker ends. */
  async #run<Done>(
    task: Task,
    limits: PrepareLimits,
    done: (value: unknown) => Done,
    large: (value: unknown) => boolean,
  ): Promise<Outcome<Done>> {
    type Ending = Outcome<Done>;
    const ended = (by: "timeout" | "stop", phase: PreparePhase | undefined): Ending => ({
      kind: "ended",
      by,
      phase,
    });
    if (limits.stop?.aborted) return ended("stop", undefined);
    if (limits.now() >= limits.deadline) return ended("timeout", undefined);
    const turn = await this.#turn(limits);
    if (turn !== "go") return ended(turn, undefined);
    let slot: Slot;
    try {
      slot = this.#idle.pop() ?? this.#start();
      clearTimeout(slot.retire);
      slot.retire = undefined;
    } catch (error) {
      this.#leave();
      return { kind: "crashed", phase: undefined, reason: `its worker could not start: ${messageOf(error)}` };
    }
    slot.worker.ref();
    const id = this.#nextId++;
    return new Promise<Ending>((resolve) => {
      let phase: PreparePhase | undefined;
      let settled = false;
      // Past #slowMs this job stops counting against the pool's size: the next spec gets a worker of
      // its own instead of waiting behind one that may never end (up to SPARE_WORKERS of them).
      let counted = true;
      const slow = setTimeout(() => {
        if (this.#overdue >= SPARE_WORKERS) return;
        counted = false;
        this.#overdue++;
        this.#leave();
      }, this.#slowMs);
      const settle = (outcome: Ending, keep: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(slow);
        limits.stop?.removeEventListener("abort", onStop);
        slot.busy = undefined;
        slot.died = undefined;
        if (keep && !this.#closed && this.#idle.length < this.#size) {
          slot.worker.unref();
          this.#idle.push(slot);
        } else void slot.worker.terminate();
        if (counted) this.#leave();
        else this.#overdue--;
        resolve(outcome);
      };
      const onStop = () => settle(ended("stop", phase), false);
      const timer = setTimeout(
        () => settle(ended("timeout", phase), false),
        Math.max(0, limits.deadline - limits.now()),
      );
      limits.stop?.addEventListener("abort", onStop, { once: true });
      slot.died = (reason, outOfMemory) =>
        settle({ kind: "crashed", phase, reason, ...(outOfMemory ? { outOfMemory } : {}) }, false);
      slot.busy = (message) => {
        if (message.kind === "phase") {
          phase = message.phase;
          return;
        }
        if (large(message.kind === "done" ? message.value : undefined)) this.#retireIfIdle(slot);
        settle(answered(message, limits.log, done), true);
      };
      const job: Job = { ...task, id };
      try {
        slot.worker.postMessage(job);
      } catch (error) {
        settle(
          { kind: "crashed", phase, reason: `it could not be sent to its worker: ${messageOf(error)}` },
          false,
        );
      }
    });
  }

  /** Ends `slot`'s worker unless another job takes it within {@link RETIRE_IDLE_MS}. */
  #retireIfIdle(slot: Slot): void {
    slot.retire = setTimeout(() => {
      const index = this.#idle.indexOf(slot);
      if (index < 0) return;
      this.#idle.splice(index, 1);
      void slot.worker.terminate();
    }, RETIRE_IDLE_MS);
    slot.retire.unref();
  }

  /**
   * Ends now the idle workers due to end after a large job, without waiting {@link RETIRE_IDLE_MS}: before
   * a comparison, whose worker would otherwise build its heap beside theirs (docs/design/memory.md).
   * The lane's worker stays: it holds small specs only, and a run with a lane has no large one.
   */
  async retireNow(): Promise<void> {
    const due = this.#idle.filter((slot) => slot.retire !== undefined);
    for (const slot of due) {
      clearTimeout(slot.retire);
      this.#idle.splice(this.#idle.indexOf(slot), 1);
    }
    await Promise.all(due.map((slot) => slot.worker.terminate()));
  }

  /** Ends every worker; the pool takes no more work. */
  async close(): Promise<void> {
    this.#closed = true;
    const lane = this.#lane && this.#shutLane(this.#lane);
    await Promise.all([lane, ...this.#idle.splice(0).map((slot) => slot.worker.terminate())]);
  }

  /** Waits for a worker to be free: "go", or why the spec ends before it had one. */
  async #turn(limits: PrepareLimits): Promise<"go" | "timeout" | "stop"> {
    if (this.#running < this.#size) {
      this.#running++;
      return "go";
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: "go" | "timeout" | "stop") => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        limits.stop?.removeEventListener("abort", onStop);
        const index = this.#waiting.indexOf(admit);
        if (index >= 0) this.#waiting.splice(index, 1);
        resolve(outcome);
      };
      // The slot is handed over by #leave: the count stays as it is.
      const admit = () => finish("go");
      const onStop = () => finish("stop");
      const timer = setTimeout(() => finish("timeout"), Math.max(0, limits.deadline - limits.now()));
      limits.stop?.addEventListener("abort", onStop, { once: true });
      this.#waiting.push(admit);
    });
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }

  #start(): Slot {
    const worker = new Worker(this.#entry, {
      workerData: { kind: PREPARE_KIND },
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb, maxYoungGenerationSizeMb: PREPARE_YOUNG_MB },
      // What the worker writes does not reach our stdout/stderr: its steps log through the logger.
      stdout: true,
      stderr: true,
      // The parent's flags (a test runner's loaders) do not apply to the worker.
      execArgv: [],
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, busy: undefined, died: undefined };
    worker.on("message", (message: Message) => slot.busy?.(message));
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY")
        slot.died?.(`they needed more than ${this.#heapMb} MB of memory`, true);
      else slot.died?.(`its worker failed: ${messageOf(error)}`);
      this.#forget(slot);
    });
    worker.on("exit", (code) => {
      slot.died?.(`its worker stopped with exit code ${code}`);
      this.#forget(slot);
    });
    return slot;
  }

  #forget(slot: Slot): void {
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
  }
}

/** A job's answer as its outcome, the worker's log lines replayed into the spec's log first. */
function answered<Done>(
  message: Exclude<Message, { kind: "phase" }>,
  log: Logger,
  done: (value: unknown) => Done,
): Done | { kind: "crashed"; phase: PreparePhase | undefined; reason: string } {
  replay(log, message.logs);
  return message.kind === "done"
    ? done(message.value)
    : { kind: "crashed", phase: message.phase, reason: message.reason };
}

function prepared(value: unknown, file: string): Extract<Preparation, { kind: "prepared" }> {
  return { kind: "prepared", spec: received(value as SentSpec, file) };
}

function received(sent: SentSpec, file: string): PreparedSpec {
  const { recorded, document, source, ...rest } = sent;
  const packed = document && new PackedDocument(document);
  const kept = source && "checked" in source ? textLeftInWorker(file) : source;
  return {
    ...rest,
    ...(recorded
      ? { recorded: () => recorded, source: { text: recorded.text } }
      : kept
        ? { source: kept }
        : {}),
    ...(packed ? { document: () => packed } : {}),
  };
}

/** The source of a checked spec whose text stayed in its worker: there, but never to be read. */
function textLeftInWorker(file: string): { readonly text: string } {
  return {
    get text(): string {
      throw new Error(`${file} was only checked: its text stayed in the preparation's worker`);
    },
  };
}

/** The worker's log lines, in the order written, into the spec's own log. */
function replay(log: Logger, entries: readonly LogEntry[]): void {
  for (const { level, message, location } of entries) {
    if (level === "debug") log.debug(message);
    else if (level === "notice") log.notice(message, location);
    else if (level === "warning") log.warning(message, location);
    else if (level === "error") log.error(message, location);
    else if (level !== "endgroup") log.info(message);
  }
}

/**
 * A spec's steps taking longer than this (ms) no longer hold the pool's worker: the next spec starts in
 * a spare one. Stripe's 4 MB spec takes 1-3 s, shaped, on a busy 2-core machine; a spec past 10 s is
 * either near the 32 MiB limit or stuck (an overlay's pattern), and the others should not wait for it.
 */
export const PREPARE_SLOW_MS = 10_000;

/**
 * After a job over this many bytes of spec (its file, or the base's document as sent), a worker left
 * idle for {@link RETIRE_IDLE_MS} is ended: V8 does not give back an idle heap, and after Stripe's 4 MB
 * spec the worker kept about 120 MB through the comparison that followed (docs/design/memory.md). A
 * worker kept busy is kept: a new one starts at 0.2-0.4 s (its validators compiled again), which ending
 * it after every large spec cost the APIs-guru collection 40 % more time.
 */
export const RETIRE_AFTER_BYTES = 1024 * 1024;
/** How long a worker may idle after a large job before it is ended. */
export const RETIRE_IDLE_MS = 250;

/** Spare workers started, at most, for specs waiting behind slow ones (each may hold a document). */
export const SPARE_WORKERS = 2;

/** What a worker may be given to test the pool: a hook at each phase of each spec. */
export interface PreparationHooks {
  phase?: (phase: PreparePhase, file: string) => void;
  /** Before a spec's document at the review's base is read. */
  base?: (file: string) => void;
}

let served = false;

/**
 * In a preparation worker: prepares each spec it is given, one at a time, and posts each phase as it
 * starts and the prepared spec (or the exception that ended it) with its log lines.
 */
export function servePreparation(hooks: PreparationHooks = {}): void {
  const port = parentPort;
  if (served || !port || (workerData as { kind?: unknown } | null)?.kind !== PREPARE_KIND) return;
  served = true;
  for (const method of ["log", "info", "warn", "error", "debug", "trace", "dir"] as const) {
    console[method] = () => {};
  }
  port.on("message", async (job: Job) => {
    if (job.task === "base") {
      // The base's reading loads in the worker that reads one: the pool's thread never does.
      const [{ readBaseDocument }, { NotReviewedError }] = await Promise.all([
        import("../change-review/base-document.ts"),
        import("../change-review/not-reviewed.ts"),
      ]);
      try {
        hooks.base?.(job.where.file);
        const read = await readBaseDocument(job.where, job.steps);
        const document = read === undefined ? undefined : packDocument(read).bytes;
        const message: Message = { id: job.id, kind: "done", value: { document }, logs: [] };
        port.postMessage(message, transferable(document));
      } catch (error) {
        const reason =
          error instanceof NotReviewedError
            ? error.reason
            : `its base commit's version could not be read (${error instanceof Error ? error.name : "Error"}: ${messageOf(error)})`;
        port.postMessage({
          id: job.id,
          kind: "failed",
          phase: undefined,
          reason,
          logs: [],
        } satisfies Message);
      }
      return;
    }
    const log = new MemoryLogger();
    let phase: PreparePhase | undefined;
    const { sourceUrl, ...options } = job.options;
    try {
      const prepared = await prepareFile(
        job.file,
        job.slug,
        {
          ...options,
          sourceUrlFor: sourceUrl === undefined ? undefined : () => sourceUrl,
          phase: (next) => {
            phase = next;
            port.postMessage({ id: job.id, kind: "phase", phase: next } satisfies Message);
            hooks.phase?.(next, job.file.path);
          },
        },
        log,
      );
      if (prepared.problems.length === 0 && prepared.recorded) {
        phase = "adding the publish record";
        port.postMessage({ id: job.id, kind: "phase", phase } satisfies Message);
      }
      const spec = sendable(prepared, job.options);
      const message: Message = { id: job.id, kind: "done", value: spec, logs: log.entries };
      port.postMessage(message, transferable(spec.document));
    } catch (error) {
      const reason = `${error instanceof Error ? error.name : "Error"}: ${messageOf(error)}`;
      port.postMessage({ id: job.id, kind: "failed", phase, reason, logs: log.entries } satisfies Message);
    }
  });
}

/**
 * The prepared spec as data: its record made (the text with it), its document, when it is compared,
 * packed: the main thread passes it on to the comparison without building it. A check's text is not
 * sent: only that there is one ({@link CHECKED_TEXT}).
 */
function sendable(prepared: PreparedSpec, options: PrepareJobOptions): SentSpec {
  const { source, document, recorded, ...rest } = prepared;
  const made = prepared.problems.length === 0 ? recorded?.() : undefined;
  const sent: SentSpec = { ...rest };
  if (made) sent.recorded = made;
  else if (source && "url" in source) sent.source = { url: source.url };
  else if (source) sent.source = options.uploads === false ? CHECKED_TEXT : { text: source.text };
  if (options.keepDocument === true && document) sent.document = packDocument(document()).bytes;
  return sent;
}

/** What a check's spec sends for its text, which it never uploads. */
const CHECKED_TEXT = { checked: true } as const;

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}

// From source, this file is the workers' entry; built, the chunk that holds it is.
if (import.meta.main) servePreparation();
