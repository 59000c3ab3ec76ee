import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/**
 * The main thread's young generation, in MiB (both semi-spaces), past which it stops growing. V8 grows
 * it to 128 MiB by itself, and what survives two scavenges of it fills the old generation: 1,000 specs
 * of 50 KiB peaked at 300-330 MiB, 190-215 with this bound (docs/design/memory.md).
 */
export const MAIN_YOUNG_MB = 16;

/**
 * Stops the young generation's growth once it reaches {@link MAIN_YOUNG_MB}. The runner starts the
 * action with no flags, and V8 reads `--max-semi-space-size` only when the heap is made; the growth
 * factor it reads at each scavenge, so it is set to 1 after the GC that grew the space to the bound.
 */
export function boundYoungGeneration(): void {
  const observer = new PerformanceObserver(() => {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    if (!young || young.space_size < MAIN_YOUNG_MB * 1024 * 1024) return;
    v8.setFlagsFromString("--semi-space-growth-factor=1");
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
