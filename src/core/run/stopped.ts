import type { SpecResult } from "../result.ts";
import { type DuplicateSlugError, describeCollision } from "../slugs/errors.ts";

/**
 * The results of a run that stopped before any upload (an input problem), so that every mode still
 * reports each spec it knew of, skipped, with the reason the run stopped. Slug collisions do not stop a
 * run: their files fail on their own ({@link collisionResults}).
 */
export function stoppedRunResults(slugsByFile: ReadonlyMap<string, string>, error: unknown): SpecResult[] {
  const reason = error instanceof Error ? error.message : String(error);
  return [...slugsByFile].map(([file, slug]) => skipped(file, slug, `Not uploaded: ${reason}`));
}

/** One failed result per file in a slug collision, with the collision and its fix, in path order. */
export function collisionResults(error: DuplicateSlugError): SpecResult[] {
  return error.collisions
    .flatMap((collision) =>
      collision.files.map(
        (file): SpecResult => ({
          file,
          slug: error.assigned.get(file) ?? collision.slug,
          status: "failed",
          errorCode: "SLUG_COLLISION",
          errors: [describeCollision(collision)],
        }),
      ),
    )
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * A spec the run did not start because its host stopped it (a signal, see `SyncPorts.stop`): skipped,
 * with why. Specs already started finish; their results stand.
 */
export function notStartedResult(file: string, slug: string, stop: AbortSignal): SpecResult {
  return skipped(file, slug, `Not started: ${stopReason(stop)}`);
}

/** Why the host stopped the run, in words. */
export function stopReason(stop: AbortSignal): string {
  const reason: unknown = stop.reason;
  return reason instanceof Error ? reason.message : String(reason);
}

function skipped(file: string, slug: string, reason: string): SpecResult {
  return { file, slug, status: "skipped", errors: [reason] };
}

/**
 * A spec whose work was under way when its host stopped the run and had not ended within the grace
 * given to it ({@link STOP_GRACE_MS}): cancelled. GitBook may hold what was uploaded, so a preview's
 * slug is still recorded in the review's comment (report/review-comment.ts).
 */
export function cancelledResult(file: string, slug: string, stop: AbortSignal): SpecResult {
  return {
    file,
    slug,
    status: "cancelled",
    errors: [
      `Cancelled: ${stopReason(stop)} before its work ended; GitBook may hold what was uploaded before.`,
    ],
  };
}

/**
 * How a host's stop is spent, within GitHub's cancellation window: the runner sends SIGINT, then
 * SIGTERM 7.5 s later, then kills the process tree 2.5 s after that (docs/design/cancellation.md). The specs
 * under way get {@link STOP_GRACE_MS} to end, then the review's comment {@link STOP_REVIEW_MS} to be
 * written: 5 s in all, leaving the host time for its summary before the SIGTERM.
 */
export const STOP_GRACE_MS = 2_000;
export const STOP_REVIEW_MS = 3_000;

export type StopSignal = "SIGINT" | "SIGTERM";

/** Where a host's signals come from and how its process ends at once (hosts/process-signals.ts). */
export interface SignalSource {
  /** Calls `handler` on each SIGINT or SIGTERM until the returned function is called. */
  listen(handler: (signal: StopSignal) => void): () => void;
  /** Ends the process now with this code. */
  exit(code: number): void;
}

/** What stopped a run: the signal, and the exit code that says so. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
  }

  /** 128 + the signal's number, as a shell reports a process ended by it: 130 (SIGINT), 143 (SIGTERM). */
  get exitCode(): number {
    return this.signal === "SIGINT" ? 130 : 143;
  }
}

/**
 * Listens for the run's stop: the first signal aborts the returned `stop` (and calls `onFirst`, to say
 * what happens now), a second one calls `onSecond` and exits at once. `dispose()` stops listening.
 */
export function listenForStop(
  source: SignalSource | undefined,
  handlers: { onFirst(signal: StopSignal): void; onSecond(signal: StopSignal): void },
): { stop: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (source === undefined) return { stop: controller.signal, dispose: () => {} };
  const dispose = source.listen((signal) => {
    if (!controller.signal.aborted) {
      controller.abort(new Interrupted(signal));
      handlers.onFirst(signal);
      return;
    }
    handlers.onSecond(signal);
    source.exit(new Interrupted(signal).exitCode);
  });
  return { stop: controller.signal, dispose };
}
