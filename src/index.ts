import { run } from "./main.ts";
import { isCompareWorker, serveComparison } from "./review/compare-worker.ts";

// The bundle is also the change review's worker (src/review/compare-worker.ts): there it only compares.
if (isCompareWorker()) serveComparison();
else await run();
