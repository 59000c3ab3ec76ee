/**
 * The stop of a run by its host (a signal), spent within GitHub's cancellation window (stopped.ts
 * {@link STOP_GRACE_MS}, docs/design/cancellation.md): the specs under way get a short grace to end, then the
 * run reports what it knows — each spec ended with its result, each under way `cancelled`, each not
 * started `skipped` — and stops waiting. The work left behind ends with the host's process.
 */
import type { Logger } from "../logger.ts";
import type { Clock, ReviewRun, ReviewThread } from "../ports.ts";
import type { SpecResult } from "../result.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import type { StreamedSpec } from "./pipeline.ts";
import { cancelledResult, notStartedResult, STOP_GRACE_MS, STOP_REVIEW_MS, stopReason } from "./stopped.ts";

interface Tracked {
  spec: StreamedSpec;
  started: boolean;
  result?: SpecResult;
}

/** Which of a run's specs started and which ended, so that a stopped run can say what became of each. */
export class TrackedSpecs {
  readonly #tracked: Tracked[] = [];

  /** `spec`, noting when its work starts and what it ends with. */
  track(spec: StreamedSpec): StreamedSpec {
    const entry: Tracked = { spec, started: false };
    this.#tracked.push(entry);
    return {
      ...spec,
      stage: async (log, holds) => {
        entry.started = true;
        const rest = await spec.stage(log, holds);
        return async () => {
          const result = await rest();
          entry.result = result;
          return result;
        };
      },
    };
  }

  /** Each spec's result now, in the order tracked: its own, else cancelled or not started. */
  resultsAt(stop: AbortSignal): SpecResult[] {
    return this.#tracked.map(
      ({ spec, started, result }) =>
        result ??
        (started
          ? cancelledResult(spec.file, spec.slug, stop)
          : notStartedResult(spec.file, spec.slug, stop)),
    );
  }
}

/**
 * The specs' results: those of `work` when it ends first, else, {@link STOP_GRACE_MS} after the host's
 * stop, what {@link TrackedSpecs} knows then.
 */
export function withinStopGrace(
  work: Promise<SpecResult[]>,
  specs: TrackedSpecs,
  stop: AbortSignal,
  ports: { clock: Clock; logger: Logger },
): Promise<SpecResult[]> {
  return raceGrace(work, stop, ports.clock, () => {
    const results = specs.resultsAt(stop);
    const cancelled = results.filter((result) => result.status === "cancelled");
    if (cancelled.length > 0) {
      const slugs = cancelled.map((result) => escapeUntrusted(result.slug)).join(", ");
      ports.logger.warning(
        `${cancelled.length} spec${cancelled.length === 1 ? "" : "s"} still under way ${STOP_GRACE_MS / 1000} s after the stop: cancelled (${slugs}).`,
      );
    }
    return results;
  });
}

/**
 * `work`, or, when the host's stop comes and `work` has not ended {@link STOP_GRACE_MS} after it, the
 * stop's reason thrown: for the steps before any spec starts (the organization's first listing, the
 * review's base), whose requests would otherwise keep a stopped run until its deadline.
 */
export function orStopAfterGrace<T>(
  work: Promise<T>,
  stop: AbortSignal | undefined,
  clock: Clock,
): Promise<T> {
  if (stop === undefined) return work;
  return raceGrace(work, stop, clock, () => {
    throw stop.reason;
  });
}

/** When each stop was first seen: one grace from then, however many steps wait on it. */
const stoppedAt = new WeakMap<AbortSignal, number>();

function graceLeft(stop: AbortSignal, clock: Clock): number {
  const at = stoppedAt.get(stop) ?? clock.now();
  stoppedAt.set(stop, at);
  return Math.max(0, at + STOP_GRACE_MS - clock.now());
}

/** `work`, or what `late` gives once the grace after `stop` is over, whichever comes first. */
function raceGrace<T>(work: Promise<T>, stop: AbortSignal, clock: Clock, late: () => T): Promise<T> {
  let onStop: (() => void) | undefined;
  const graceOver = new Promise<T>((resolve, reject) => {
    onStop = () => {
      clock.sleep(graceLeft(stop, clock)).then(() => {
        try {
          resolve(late());
        } catch (error) {
          reject(error);
        }
      });
    };
    if (stop.aborted) onStop();
    else stop.addEventListener("abort", onStop, { once: true });
  });
  // Settled either way, so that a grace that ends after the work never counts as unhandled.
  graceOver.catch(() => {});
  const ended = work.finally(() => {
    if (onStop) stop.removeEventListener("abort", onStop);
  });
  return Promise.race([ended, graceOver]);
}

/**
 * The review's comment after a stop, written with a deadline {@link STOP_REVIEW_MS} away (`open`) and
 * waited for no longer: its URL, or undefined when it was not written in time.
 */
export async function stoppedReview(
  open: ((deadline: number) => ReviewThread | undefined) | undefined,
  run: ReviewRun,
  stop: AbortSignal,
  clock: Clock,
): Promise<string | undefined> {
  const thread = open?.(clock.now() + STOP_REVIEW_MS);
  if (thread === undefined) return undefined;
  const late = clock.sleep(STOP_REVIEW_MS).then(() => undefined);
  return Promise.race([thread.publish({ ...run, interrupted: stopReason(stop) }), late]);
}
