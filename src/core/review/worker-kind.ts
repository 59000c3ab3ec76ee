/**
 * Whether this thread is a change review's comparison worker (src/core/review/compare-worker.ts). A
 * module of its own, without the comparison: the entries ask it first, and load the comparison only in
 * such a worker, or the run only outside one.
 */
import { isMainThread, workerData } from "node:worker_threads";

/** What the worker is told to do; other worker threads (a test runner's) carry other data. */
export const WORKER_KIND = "gitbook-openapi:compare";

/** Whether this thread is a comparison's worker (then the entries start nothing). */
export function isCompareWorker(): boolean {
  return !isMainThread && (workerData as { kind?: unknown } | null)?.kind === WORKER_KIND;
}
