import { describe, expect, it } from "vitest";
import { MemoryGate } from "../../src/core/run/memory-gate.ts";

/** Work that ends when the test says, recording how many ran at once and with what weight. */
function harness(gate: MemoryGate) {
  let running = 0;
  let weight = 0;
  const peaks = { running: 0, weight: 0 };
  const order: string[] = [];
  const finishers = new Map<string, () => void>();
  const start = (name: string, bytes: number) =>
    gate.run(bytes, async () => {
      running += 1;
      weight += bytes;
      peaks.running = Math.max(peaks.running, running);
      peaks.weight = Math.max(peaks.weight, weight);
      order.push(name);
      await new Promise<void>((resolve) => finishers.set(name, resolve));
      running -= 1;
      weight -= bytes;
    });
  const finish = async (name: string) => {
    finishers.get(name)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { start, finish, peaks, order };
}

describe("MemoryGate", () => {
  it("bounds the number of items and their weight, runs a heavy one alone, in arrival order", async () => {
    const gate = new MemoryGate(3, 100);
    const h = harness(gate);
    const all = [h.start("a", 40), h.start("b", 40), h.start("big", 500), h.start("c", 10), h.start("d", 10)];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.order).toEqual(["a", "b"]); // big does not fit beside them; c and d wait behind it
    await h.finish("a");
    expect(h.order).toEqual(["a", "b"]);
    await h.finish("b");
    expect(h.order).toEqual(["a", "b", "big"]); // alone
    await h.finish("big");
    expect(h.order).toEqual(["a", "b", "big", "c", "d"]);
    await h.finish("c");
    await h.finish("d");
    await Promise.all(all);
    expect(h.peaks).toEqual({ running: 2, weight: 500 });
  });

  it("admits up to the slot count when items are light, and frees its slot when work throws", async () => {
    const gate = new MemoryGate(2, 1_000);
    const failed = gate.run(1, async () => {
      throw new Error("boom");
    });
    await expect(failed).rejects.toThrow("boom");
    const h = harness(gate);
    const all = [h.start("a", 1), h.start("b", 1), h.start("c", 1)];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.order).toEqual(["a", "b"]);
    await h.finish("a");
    expect(h.order).toEqual(["a", "b", "c"]);
    await h.finish("b");
    await h.finish("c");
    await Promise.all(all);
    expect(h.peaks.running).toBe(2);
  });

  it("holds back waiters while admitted work weighs more than it said, and admits them when it weighs less", async () => {
    const gate = new MemoryGate(4, 100);
    const order: string[] = [];
    let reweighA: (weight: number) => void = () => {};
    let finishA: () => void = () => {};
    const a = gate.run(10, (reweigh) => {
      order.push("a");
      reweighA = reweigh;
      return new Promise<void>((resolve) => {
        finishA = resolve;
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    reweighA(95); // a's bundle turned out larger than its root file
    const b = gate.run(10, async () => {
      order.push("b");
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(["a"]);
    reweighA(20); // its parsed document let go: only its text is held
    await b;
    expect(order).toEqual(["a", "b"]);
    finishA();
    await a;
  });
});
