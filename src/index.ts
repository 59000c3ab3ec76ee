import { isCompareWorker } from "./core/change-review/worker-kind.ts";

// The bundle may also be the change review's worker (src/core/change-review/compare-worker.ts): there it only
// compares, and the run's code is not loaded.
if (isCompareWorker(process.argv)) (await import("./core/change-review/compare-worker.ts")).serveComparison();
else {
  (await import("./hosts/heap-growth.ts")).boundHeapGrowth();
  await (await import("./hosts/action/main.ts")).run();
}
