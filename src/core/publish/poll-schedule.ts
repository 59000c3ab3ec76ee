/**
 * When to look again at a spec the service is processing (the shape: `PollSchedule` in ../ports.ts).
 * A growth of 1.2 keeps the wait past the end of processing under about a fifth of the time already
 * spent, at a few more reads than 1.5 or 2; `bench/sync.ts` compares the candidates (see
 * bench/README.md, "Polling schedule"). Shared listings (./state-reads.ts) look at least as often.
 */
import type { PollSchedule } from "../ports.ts";

export type { PollSchedule };

export const DEFAULT_POLL_SCHEDULE: PollSchedule = {
  firstDelayMs: 1000,
  growth: 1.2,
  maxDelayMs: 10_000,
  jitter: 0.05,
};

/** Delay before poll number `attempt` (0 for the first poll after the upload). */
export function pollDelayMs(
  schedule: PollSchedule,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(schedule.maxDelayMs, schedule.firstDelayMs * schedule.growth ** attempt);
  return jittered(base, schedule.jitter, random);
}

/** `ms` moved by up to `jitter` of itself either way, so that many waiters do not look at once. */
export function jittered(ms: number, jitter: number, random: () => number = Math.random): number {
  const spread = ms * jitter;
  return Math.max(0, Math.round(ms - spread + 2 * spread * random()));
}
