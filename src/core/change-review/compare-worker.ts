/**
 * Each spec's comparison in a worker thread of its own, ended when it goes over its heap or time budget
 * (the second line behind a comparison bounded by construction); its console is captured and logged at
 * debug level. The worker runs this very file ({@link serveComparison}). The budget: docs/design/change-review.md.
 */
import { fileURLToPath } from "node:url";
import { parentPort, Worker, workerData } from "node:worker_threads";
import pLimit from "p-limit";
import { type ApiChanges, compareApis } from "../changes/index.ts";
import type { ReviewBudget } from "../plan/run-settings.ts";
import type { DebugLog } from "../ports.ts";
import { NotReviewedError } from "./not-reviewed.ts";
import { PackedDocument, unpackDocument } from "./packed-document.ts";
import { WORKER_ARGUMENT, WORKER_KIND } from "./worker-kind.ts";

/** Comparisons running at once: each is CPU-bound and may take its whole heap (runners have 2 cores). */
export const PARALLEL_REVIEWS = 2;

/**
 * The young generation of the comparison's heap, in MiB. V8's default lets it grow to 64 MiB a semi-space
 * while two large documents are built and walked; bounded, the comparison of Stripe's 4 MB pair peaks
 * lower for about the same time (docs/design/memory.md).
 */
export const COMPARE_YOUNG_MB = 8;

interface Job {
  kind: typeof WORKER_KIND;
  before: Side;
  after: Side;
}

/** A document as it crosses to the worker: packed ones as their bytes (a class does not cross). */
type Side = { packed: Uint8Array } | { document: unknown };

function sideOf(document: unknown): Side {
  return document instanceof PackedDocument ? { packed: document.bytes } : { document };
}

function documentOf(side: Side): unknown {
  return "packed" in side ? unpackDocument(new PackedDocument(side.packed)) : side.document;
}

type Answer =
  | { ok: true; changes: ApiChanges; console: ConsoleSummary }
  | { ok: false; message: string; console: ConsoleSummary };

interface ConsoleSummary {
  lines: number;
  first?: string;
}

/**
 * Compares in a worker under the budget; rejects with {@link NotReviewedError} when the comparison
 * cannot finish (out of memory, out of time, a crash, an exception). Either document may be packed
 * (./packed-document.ts): only the worker builds it.
 */
export function compareInWorker(
  before: unknown,
  after: unknown,
  budget: ReviewBudget,
  options: { log?: DebugLog | undefined; entry?: string | URL } = {},
): Promise<ApiChanges> {
  const entry = options.entry ?? fileURLToPath(import.meta.url);
  return new Promise<ApiChanges>((resolve, reject) => {
    let worker: Worker;
    try {
      const job: Job = { kind: WORKER_KIND, before: sideOf(before), after: sideOf(after) };
      worker = new Worker(entry, {
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: COMPARE_YOUNG_MB },
        // What the worker writes does not reach our stdout/stderr: it is counted, then dropped.
        stdout: true,
        stderr: true,
        // The parent's flags (a test runner's loaders) do not apply to the worker.
        execArgv: [],
        // The mark the entries look for first (./worker-kind.ts); the environment is the parent's.
        argv: [WORKER_ARGUMENT],
      });
    } catch (error) {
      reject(new NotReviewedError(`the comparison could not start: ${messageOf(error)}`));
      return;
    }
    const written = { lines: 0, first: undefined as string | undefined };
    const count = (chunk: Buffer | string) => {
      const text = String(chunk);
      written.first ??= text.split("\n", 1)[0];
      written.lines += text.split("\n").length - 1 || 1;
    };
    worker.stdout.on("data", count);
    worker.stderr.on("data", count);
    let settled = false;
    const settle = (outcome: () => void, summary?: ConsoleSummary) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      const lines = (summary?.lines ?? 0) + written.lines;
      if (lines > 0) {
        const first = summary?.first ?? written.first ?? "";
        options.log?.debug(
          `The comparison wrote ${lines} line${lines === 1 ? "" : "s"} to the console (dropped); the first: ${first.slice(0, 200)}`,
        );
      }
      outcome();
    };
    const timer = setTimeout(() => {
      settle(() =>
        reject(new NotReviewedError(`the comparison took longer than its ${seconds(budget.timeoutMs)}`)),
      );
    }, budget.timeoutMs);
    worker.on("message", (answer: Answer) => {
      if (answer.ok) settle(() => resolve(answer.changes), answer.console);
      else settle(() => reject(new NotReviewedError(answer.message)), answer.console);
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const reason =
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `the comparison needed more than its ${budget.heapMb} MB of memory`
          : `the comparison failed: ${messageOf(error)}`;
      settle(() => reject(new NotReviewedError(reason)));
    });
    worker.on("exit", (code) => {
      settle(() => reject(new NotReviewedError(`the comparison stopped with exit code ${code}`)));
    });
  });
}

/** A comparer of documents, {@link PARALLEL_REVIEWS} at a time, each under `budget`. */
export function budgetedCompare(budget: ReviewBudget) {
  const limit = pLimit(PARALLEL_REVIEWS);
  return (before: unknown, after: unknown, log?: DebugLog): Promise<ApiChanges> =>
    limit(() => compareInWorker(before, after, budget, { log }));
}

let served = false;

/**
 * In a comparison's worker: compares the two documents it was given (with `compare`, the library's by
 * default) and posts the changes back; once, and only in such a worker.
 */
export function serveComparison(
  compare: (before: unknown, after: unknown) => ApiChanges = compareApis,
): void {
  const port = parentPort;
  const job = workerData as Job | null;
  if (served || !port || job?.kind !== WORKER_KIND) return;
  served = true;
  const written: ConsoleSummary = { lines: 0 };
  const capture = (...args: unknown[]) => {
    written.lines++;
    written.first ??= args.map((arg) => (typeof arg === "string" ? arg : String(arg))).join(" ");
  };
  for (const method of ["log", "info", "warn", "error", "debug", "trace", "dir"] as const) {
    console[method] = capture;
  }
  let answer: Answer;
  try {
    const { breaking, other, omitted } = compare(documentOf(job.before), documentOf(job.after));
    answer = { ok: true, changes: { breaking, other, ...(omitted ? { omitted } : {}) }, console: written };
  } catch (error) {
    answer = { ok: false, message: `the comparison failed: ${messageOf(error)}`, console: written };
  }
  port.postMessage(answer);
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

// From source, this file is the worker's entry; a bundle's entry calls serveComparison itself.
if (import.meta.main) serveComparison();
