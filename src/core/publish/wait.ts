import type { Clock, SpecService } from "../ports.ts";
import type { Spec } from "../service/types.ts";
import type { PollSchedule } from "./poll-schedule.ts";
import { pollDelayMs } from "./poll-schedule.ts";
import { isResultOfUpload } from "./processing.ts";
import type { SpecWatch, StateReader } from "./state-reads.ts";

export type WaitOutcome =
  | { kind: "processed"; spec: Spec; polls: number }
  /** `lastError`: why the last read failed, when it did. */
  | { kind: "timed-out"; spec: Spec; polls: number; lastError?: string };

export interface WaitOptions {
  service: SpecService;
  clock: Clock;
  schedule: PollSchedule;
  /** Epoch milliseconds after which the spec counts as timed out. */
  deadline: number;
  random?: () => number;
  /** Reads the spec's state; `service.getSpec` unless the run batches the reads of its specs. */
  states?: StateReader | undefined;
}

/**
 * Polls the spec until the processing that followed `uploaded` has ended, or the deadline passes. A read
 * that fails (after the client's own retries) is no verdict on the spec, which was uploaded and may well
 * be processed: polling goes on until the deadline, and a timeout then names the last error seen.
 */
export async function waitForProcessing(
  orgId: string,
  uploaded: Spec,
  options: WaitOptions,
): Promise<WaitOutcome> {
  if (isResultOfUpload(uploaded, uploaded)) return { kind: "processed", spec: uploaded, polls: 0 };
  const watch = options.states?.watch(uploaded.slug) ?? {
    paced: false,
    read: () => options.service.getSpec(orgId, uploaded.slug),
    end() {},
  };
  try {
    return await pollUntilProcessed(uploaded, watch, options);
  } finally {
    watch.end();
  }
}

async function pollUntilProcessed(
  uploaded: Spec,
  watch: SpecWatch,
  { clock, schedule, deadline, random }: WaitOptions,
): Promise<WaitOutcome> {
  let latest = uploaded;
  let lastError: string | undefined;
  const timedOut = (polls: number): WaitOutcome => ({
    kind: "timed-out",
    spec: latest,
    polls,
    ...(lastError === undefined ? {} : { lastError }),
  });
  // Polls of its own follow the schedule; a paced read waits for the reader's next look, which all
  // waiting specs share, so it needs no spacing and does not lengthen the schedule's later waits.
  let ownPolls = 0;
  for (let attempt = 0; ; attempt++) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) return timedOut(attempt);
    if (!watch.paced) await clock.sleep(Math.min(pollDelayMs(schedule, ownPolls++, random), remaining));
    try {
      latest = await watch.read();
      lastError = undefined;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      continue;
    }
    if (isResultOfUpload(uploaded, latest)) return { kind: "processed", spec: latest, polls: attempt + 1 };
  }
}
