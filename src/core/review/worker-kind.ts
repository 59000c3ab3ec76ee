/**
 * Whether this thread is a change review's comparison worker (src/core/review/compare-worker.ts). A
 * module of its own, without the comparison: the entries ask it first, and load the comparison only in
 * such a worker, or the run only outside one.
 */
import { createRequire } from "node:module";

/** What the worker is told to do; other worker threads (a test runner's) carry other data. */
export const WORKER_KIND = "gitbook-openapi:compare";

/**
 * The variable the comparison's worker is started with (set to {@link WORKER_KIND}). Without it, a
 * thread is not one: the entries answer without loading node:worker_threads, 7 ms of every start.
 */
export const WORKER_VARIABLE = "GITBOOK_OPENAPI_WORKER";

/** Whether this thread is a comparison's worker (then the entries start nothing). */
export function isCompareWorker(): boolean {
  if (process.env[WORKER_VARIABLE] !== WORKER_KIND) return false;
  const { isMainThread, workerData } = createRequire(import.meta.url)(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  return !isMainThread && (workerData as { kind?: unknown } | null)?.kind === WORKER_KIND;
}
