/**
 * Whether this thread is a change review's comparison worker (src/core/change-review/compare-worker.ts). A
 * module of its own, without the comparison: the entries ask it first, and load the comparison only in
 * such a worker, or the run only outside one.
 */
import { createRequire } from "node:module";

/** What the worker is told to do; other worker threads (a test runner's) carry other data. */
export const WORKER_KIND = "gitbook-openapi:compare";

/**
 * The argument the comparison's worker is started with (its `process.argv` ends with it). Without it, a
 * thread is not one: the entries answer without loading node:worker_threads, 7 ms of every start.
 */
export const WORKER_ARGUMENT = `--${WORKER_KIND}`;

/**
 * Whether this thread is a comparison's worker (then the entries start nothing); `argv` is the
 * process's arguments, which the entry passes in (the core reads nothing of the process itself).
 */
export function isCompareWorker(argv: readonly string[]): boolean {
  if (argv.at(-1) !== WORKER_ARGUMENT) return false;
  const { isMainThread, workerData } = createRequire(import.meta.url)(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  return !isMainThread && (workerData as { kind?: unknown } | null)?.kind === WORKER_KIND;
}
