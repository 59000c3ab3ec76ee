import type { Clock } from "../ports.ts";
import { describeServiceError } from "../service/describe-error.ts";
import type { Spec } from "../service/types.ts";
import { DEFAULT_POLL_SCHEDULE, jittered, type PollSchedule, pollDelayMs } from "./poll-schedule.ts";

/** The states of the specs a run waits on. */
export interface StateReader {
  /** Starts waiting on a spec, just uploaded; its reads end with `end`. */
  watch(slug: string): SpecWatch;
}

export interface SpecWatch {
  /**
   * The reader decides when a read is made (the run's shared rhythm of looks): read again as soon as an
   * answer shows the spec busy. Otherwise the caller spaces its reads by the poll schedule.
   */
  readonly paced: boolean;
  /** The spec's state, as read by a request that starts now or later. */
  read(): Promise<Spec>;
  end(): void;
}

export interface BatchedStateReaderOptions {
  /** One spec by slug. */
  getSpec(slug: string): Promise<Spec>;
  /** Every spec of the organization, through all pages of up to {@link LIST_PAGE_LIMIT}. */
  listSpecs(): Promise<Spec[]>;
  clock: Clock;
  /** How many specs the organization holds, when a listing made earlier in the run tells. */
  knownSpecs?: number | undefined;
  /** The specs' poll schedule, which the looks follow at least (`DEFAULT_POLL_SCHEDULE` unless given). */
  schedule?: PollSchedule | undefined;
  /** Looks start at least this far apart, so that a listing serves many waiting specs. */
  minListIntervalMs?: number | undefined;
  /** Epoch milliseconds past which no look is put off (the run's deadline). */
  deadline?: number | undefined;
  random?: () => number;
  /** Told once, when listing fails and each spec is read on its own from then on. */
  onListingFailed?: (reason: string) => void;
}

/** The most specs one page may hold (the service's maximum `limit`). */
export const LIST_PAGE_LIMIT = 1000;
const DEFAULT_MIN_LIST_INTERVAL_MS = 300;

interface Watched {
  slug: string;
  /** When its upload ended (the watch began). */
  since: number;
  /** When the schedule would first look at it. */
  firstLookAt: number;
  /** A look of the rhythm has read it: it keeps the rhythm to its end. */
  looked: boolean;
}

interface Waiter {
  watched: Watched;
  resolve(spec: Spec): void;
  reject(error: unknown): void;
}

/**
 * Reads the states of the specs a run waits on in as few requests as it can, on one rhythm of looks
 * for all of them (docs/design/polling.md). While more specs are waited on than the organization's
 * listing has pages, a look is one listing (up to 1,000 specs a page) that answers them all. The first
 * look comes when the oldest waiting spec is due its schedule's first read; each next one after
 * (growth − 1) / 2 of the time the youngest looked-at spec has waited, at least `minListIntervalMs`:
 * every spec is looked at at least as often as its own schedule would read it, so the schedule's bound
 * on the wait past the end of processing holds for each. Once fewer specs wait than the listing has
 * pages, the specs a look already read keep the rhythm with a read each (no more requests than the
 * listing), and the others are read when their own schedule says. A read is only ever answered by a
 * request that started after it was asked for, so no answer predates the upload it follows. A spec the
 * listing does not show is read on its own; if listing fails, every spec is read on its own schedule
 * for the rest of the run.
 */
export class BatchedStateReader implements StateReader {
  readonly #options: BatchedStateReaderOptions;
  readonly #schedule: PollSchedule;
  readonly #minIntervalMs: number;
  readonly #random: () => number;
  readonly #watching = new Set<Watched>();
  #due: Waiter[] = [];
  #listing = false;
  #listingWorks = true;
  #lastLookAt = Number.NEGATIVE_INFINITY;
  #timerSet = false;
  /** Pages a full listing takes, as last seen (one until seen). */
  #pages: number;

  constructor(options: BatchedStateReaderOptions) {
    this.#options = options;
    this.#schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
    this.#minIntervalMs = options.minListIntervalMs ?? DEFAULT_MIN_LIST_INTERVAL_MS;
    this.#random = options.random ?? Math.random;
    this.#pages = Math.max(1, Math.ceil((options.knownSpecs ?? 0) / LIST_PAGE_LIMIT));
  }

  watch(slug: string): SpecWatch {
    const since = this.#options.clock.now();
    const watched: Watched = {
      slug,
      since,
      firstLookAt: since + pollDelayMs(this.#schedule, 0, this.#random),
      looked: false,
    };
    this.#watching.add(watched);
    const reader = this;
    return {
      get paced() {
        return reader.#paced(watched);
      },
      read: () =>
        new Promise<Spec>((resolve, reject) => {
          const waiter = { watched, resolve, reject };
          if (this.#paced(watched)) {
            this.#due.push(waiter);
            this.#pump();
          } else this.#readAlone(waiter);
        }),
      end: () => {
        this.#watching.delete(watched);
      },
    };
  }

  #paced(watched: Watched): boolean {
    return this.#listingWorks && (this.#batching() || watched.looked);
  }

  #batching(): boolean {
    return this.#listingWorks && this.#watching.size > this.#pages;
  }

  #pump(): void {
    if (this.#due.length === 0 || this.#listing || this.#timerSet) return;
    // Reads asked for in the same turn share the look: it starts on the next turn at the earliest.
    const wait = Math.max(0, this.#nextLookAt() - this.#options.clock.now());
    this.#timerSet = true;
    void this.#options.clock.sleep(wait).then(() => {
      this.#timerSet = false;
      this.#look();
    });
  }

  /** When the rhythm looks next, from every spec that keeps it (not only those whose read is asked). */
  #nextLookAt(): number {
    let at = Number.POSITIVE_INFINITY;
    let youngestLooked = Number.NEGATIVE_INFINITY;
    for (const watched of this.#watching) {
      if (!this.#paced(watched)) continue;
      if (watched.looked) youngestLooked = Math.max(youngestLooked, watched.since);
      else at = Math.min(at, watched.firstLookAt);
    }
    if (youngestLooked > Number.NEGATIVE_INFINITY) {
      const { growth, maxDelayMs, jitter } = this.#schedule;
      const share = ((growth - 1) / 2) * (this.#lastLookAt - youngestLooked);
      at = Math.min(at, this.#lastLookAt + jittered(Math.min(maxDelayMs, share), jitter, this.#random));
    }
    if (at === Number.POSITIVE_INFINITY) at = this.#options.clock.now();
    at = Math.max(at, this.#lastLookAt + this.#minIntervalMs);
    return Math.min(at, this.#options.deadline ?? Number.POSITIVE_INFINITY);
  }

  #look(): void {
    const due = this.#due;
    this.#due = [];
    if (due.length === 0) return;
    this.#lastLookAt = this.#options.clock.now();
    for (const waiter of due) waiter.watched.looked = true;
    if (this.#batching()) void this.#listRound(due);
    else for (const waiter of due) this.#readAlone(waiter);
  }

  async #listRound(due: Waiter[]): Promise<void> {
    this.#listing = true;
    try {
      const seen = await this.#listAll();
      for (const waiter of due) {
        const spec = seen.get(waiter.watched.slug);
        if (spec) waiter.resolve(spec);
        else this.#readAlone(waiter);
      }
    } catch (error) {
      this.#listingWorks = false;
      this.#options.onListingFailed?.(describeServiceError(error).message);
      for (const waiter of due) this.#readAlone(waiter);
    } finally {
      this.#listing = false;
      this.#pump();
    }
  }

  async #listAll(): Promise<Map<string, Spec>> {
    const specs = await this.#options.listSpecs();
    this.#pages = Math.max(1, Math.ceil(specs.length / LIST_PAGE_LIMIT));
    return new Map(specs.map((spec) => [spec.slug, spec]));
  }

  #readAlone(waiter: Waiter): void {
    this.#options.getSpec(waiter.watched.slug).then(waiter.resolve, waiter.reject);
  }
}
