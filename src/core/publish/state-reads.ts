import type { Clock } from "../ports.ts";
import { describeServiceError } from "../service/describe-error.ts";
import type { Spec } from "../service/types.ts";

/** The states of the specs a run waits on. */
export interface StateReader {
  /** Starts waiting on a spec; its reads end with `end`. */
  watch(slug: string): SpecWatch;
}

export interface SpecWatch {
  /**
   * Reads are gathered into listings that run on their own rhythm: read again at once, no need to
   * space the reads out.
   */
  readonly batched: boolean;
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
  /** Listings start at least this far apart, so that a listing serves many waiting specs. */
  minListIntervalMs?: number;
  /** Told once, when listing fails and each spec is read on its own from then on. */
  onListingFailed?: (reason: string) => void;
}

/** The most specs one page may hold (the service's maximum `limit`). */
export const LIST_PAGE_LIMIT = 1000;
const DEFAULT_MIN_LIST_INTERVAL_MS = 500;

interface Waiter {
  slug: string;
  resolve(spec: Spec): void;
  reject(error: unknown): void;
}

/**
 * Reads the states of the specs a run waits on in as few requests as it can. While more specs are
 * waited on than the organization's listing has pages, reads are gathered and one listing (up to 1,000
 * specs a page) answers them all, listings starting at least `minListIntervalMs` apart; otherwise each
 * spec is read on its own. A read is only ever answered by a request that started after it was asked
 * for, so no answer predates the upload it follows. A spec the listing does
 * not show is read on its own; if listing fails, every spec is read on its own for the rest of the run.
 */
export class BatchedStateReader implements StateReader {
  readonly #options: BatchedStateReaderOptions;
  readonly #minIntervalMs: number;
  #due: Waiter[] = [];
  #listing = false;
  #listingWorks = true;
  #nextListAt = Number.NEGATIVE_INFINITY;
  #timerSet = false;
  #watched = 0;
  /** Pages a full listing takes, as last seen (one until seen). */
  #pages: number;

  constructor(options: BatchedStateReaderOptions) {
    this.#options = options;
    this.#minIntervalMs = options.minListIntervalMs ?? DEFAULT_MIN_LIST_INTERVAL_MS;
    this.#pages = Math.max(1, Math.ceil((options.knownSpecs ?? 0) / LIST_PAGE_LIMIT));
  }

  watch(slug: string): SpecWatch {
    this.#watched++;
    let ended = false;
    const reader = this;
    return {
      get batched() {
        return reader.#batching();
      },
      read: () =>
        new Promise<Spec>((resolve, reject) => {
          this.#due.push({ slug, resolve, reject });
          this.#pump();
        }),
      end: () => {
        if (ended) return;
        ended = true;
        this.#watched--;
      },
    };
  }

  #pump(): void {
    if (this.#due.length === 0) return;
    if (!this.#batching()) {
      const due = this.#due;
      this.#due = [];
      for (const waiter of due) this.#readAlone(waiter);
      return;
    }
    if (this.#listing || this.#timerSet) return;
    // Reads asked for in the same turn share the listing: it starts on the next turn at the earliest.
    const wait = Math.max(0, this.#nextListAt - this.#options.clock.now());
    this.#timerSet = true;
    void this.#options.clock.sleep(wait).then(() => {
      this.#timerSet = false;
      if (this.#batching()) void this.#listRound();
      else this.#pump();
    });
  }

  #batching(): boolean {
    return this.#listingWorks && this.#watched > this.#pages;
  }

  async #listRound(): Promise<void> {
    const due = this.#due;
    this.#due = [];
    this.#listing = true;
    this.#nextListAt = this.#options.clock.now() + this.#minIntervalMs;
    try {
      const seen = await this.#listAll();
      for (const waiter of due) {
        const spec = seen.get(waiter.slug);
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
    this.#options.getSpec(waiter.slug).then(waiter.resolve, waiter.reject);
  }
}
