/** ISO timestamps that strictly increase, so that every change gets a later `updatedAt` than the last. */
export class MonotonicClock {
  #last = 0;

  now(): string {
    this.#last = Math.max(Date.now(), this.#last + 1);
    return new Date(this.#last).toISOString();
  }
}
