import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/**
 * The main thread's young generation, in MiB (both semi-spaces), past which it stops growing. V8 grows
 * it to 128 MiB by itself, and what survives two scavenges of it fills the old generation: 1,000 specs
 * of 50 KiB peaked at 300-330 MiB, 190-215 with this bound (docs/design/memory.md).
 */
export const MAIN_YOUNG_MB = 16;

/**
 * How far, in percent of what a full GC left live, the old generation of every thread may grow before
 * the next. V8 picks 10-300 % by itself, 300 % whenever the heap's limit is its default maximum or
 * more (on a machine of 16 GiB or more, and in a worker given 2 GiB): a run's heaps then hold three
 * times their garbage. 50 %: 1,000 specs of 50 KiB 245-265 → 194-197 MiB in the same time, the APIs-guru
 * collection 467-507 → 370-395 MiB; 25 % saved little more and cost the 1,000 specs a tenth of their
 * time, in full GCs of the main thread (docs/design/memory.md).
 */
const OLD_GENERATION_GROWTH_PERCENT = 50;

/**
 * Bounds how far the heaps grow past what they hold. The runner starts the action with no flags, and
 * V8 reads `--max-semi-space-size` only when a heap is made; the growth factors it reads at each GC, so
 * they are set here: the old generation's at once (every isolate, workers started later too), the
 * young generation's to 1 after the GC that grew it to {@link MAIN_YOUNG_MB}.
 */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  const observer = new PerformanceObserver(() => {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    if (!young || young.space_size < MAIN_YOUNG_MB * 1024 * 1024) return;
    v8.setFlagsFromString("--semi-space-growth-factor=1");
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
