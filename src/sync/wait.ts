import type { Spec } from "../client/types.ts";
import type { PollSchedule } from "./poll-schedule.ts";
import { pollDelayMs } from "./poll-schedule.ts";
import type { Clock, SpecService } from "./ports.ts";
import { isResultOfUpload } from "./processing.ts";

export type WaitOutcome =
  | { kind: "processed"; spec: Spec; polls: number }
  | { kind: "timed-out"; spec: Spec; polls: number };

export interface WaitOptions {
  service: SpecService;
  clock: Clock;
  schedule: PollSchedule;
  /** Epoch milliseconds after which the spec counts as timed out. */
  deadline: number;
  random?: () => number;
}

/** Polls the spec until the processing that followed `uploaded` has ended, or the deadline passes. */
export async function waitForProcessing(
  orgId: string,
  uploaded: Spec,
  { service, clock, schedule, deadline, random }: WaitOptions,
): Promise<WaitOutcome> {
  if (isResultOfUpload(uploaded, uploaded)) return { kind: "processed", spec: uploaded, polls: 0 };
  let latest = uploaded;
  for (let attempt = 0; ; attempt++) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { kind: "timed-out", spec: latest, polls: attempt };
    await clock.sleep(Math.min(pollDelayMs(schedule, attempt, random), remaining));
    latest = await service.getSpec(orgId, uploaded.slug);
    if (isResultOfUpload(uploaded, latest)) return { kind: "processed", spec: latest, polls: attempt + 1 };
  }
}
