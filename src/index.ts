import { isCompareWorker, serveComparison } from "./core/review/compare-worker.ts";
import { run } from "./hosts/action/main.ts";

// The bundle is also the change review's worker (src/core/review/compare-worker.ts): there it only compares.
if (isCompareWorker()) serveComparison();
else await run();
