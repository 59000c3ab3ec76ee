/**
 * Admits work while both bounds hold: at most `slots` items at once, and at most `bytes` of their
 * weight together, except that one item is always admitted alone however heavy. Waiters are admitted
 * in arrival order, so a heavy item is never starved by light ones behind it. Admitted work may say
 * what it weighs once it knows better (a spec's bundle is more than its root file; its upload text less
 * than its parsed document).
 */
export class MemoryGate {
  readonly #slots: number;
  readonly #bytes: number;
  #used = 0;
  #weight = 0;
  readonly #waiting: { weight: number; admit: () => void }[] = [];

  constructor(slots: number, bytes: number) {
    this.#slots = Math.max(1, slots);
    this.#bytes = bytes;
  }

  /**
   * Runs `work` once admitted; its weight counts until it settles. `work` may change its weight with
   * `reweigh`: more holds back those that wait, less admits them.
   */
  async run<T>(weight: number, work: (reweigh: (weight: number) => void) => Promise<T>): Promise<T> {
    await this.#enter(weight);
    let held = weight;
    const reweigh = (next: number) => {
      this.#weight += next - held;
      held = next;
      this.#admitWaiting();
    };
    try {
      return await work(reweigh);
    } finally {
      this.#used -= 1;
      this.#weight -= held;
      this.#admitWaiting();
    }
  }

  #enter(weight: number): Promise<void> {
    if (this.#waiting.length === 0 && this.#fits(weight)) {
      this.#take(weight);
      return Promise.resolve();
    }
    return new Promise((admit) => this.#waiting.push({ weight, admit }));
  }

  #fits(weight: number): boolean {
    return this.#used === 0 || (this.#used < this.#slots && this.#weight + weight <= this.#bytes);
  }

  #take(weight: number): void {
    this.#used += 1;
    this.#weight += weight;
  }

  #admitWaiting(): void {
    for (let next = this.#waiting[0]; next && this.#fits(next.weight); next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#take(next.weight);
      next.admit();
    }
  }
}
