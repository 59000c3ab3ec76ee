/**
 * The cleanup sweep, for hosts with no close event (a scheduled `sync --mode cleanup`): the
 * organization's preview slugs under the run's prefix name the pull requests that had previews; each
 * one the review host says is closed gets the per-pull-request cleanup, which deletes what that pull
 * request's own comment records (and what its slug rule derives), never anything else. A pull request
 * whose state cannot be read keeps its previews, with a warning: nothing is deleted on a guess.
 */
import type { Logger } from "../logger.ts";
import type { SpecResult } from "../result.ts";
import type { PullRequestStates } from "../review-thread/pull-request-state.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";

/** Pull requests asked about at most in one sweep; the others wait for the next one, with a warning. */
export const MAX_SWEPT_REVIEWS = 200;

export interface SweepOptions {
  /** Every slug of the organization. */
  slugs: Iterable<string>;
  /** The run's slug prefix: only previews below it are this repository's candidates; "" for none. */
  prefix: string;
  states: PullRequestStates;
  /** The per-pull-request cleanup of pull request `number`: its results. */
  cleanUp(number: number): Promise<SpecResult[]>;
  logger: Logger;
  maxReviews?: number;
}

export interface SweepOutcome {
  /** Pull requests found closed and cleaned up, ascending. */
  closed: number[];
  open: number[];
  /** Pull requests whose state could not be read: their previews are kept. */
  unknown: number[];
  results: SpecResult[];
}

const PULL_REQUEST_PREVIEW = /-pr-([1-9][0-9]{0,15})$/;

/** The pull request numbers that previews below `prefix` name, ascending. */
export function previewedPullRequests(slugs: Iterable<string>, prefix: string): number[] {
  const numbers = new Set<number>();
  for (const slug of slugs) {
    if (!slug.startsWith(prefix)) continue;
    const match = PULL_REQUEST_PREVIEW.exec(slug.slice(prefix.length));
    const number = Number(match?.[1]);
    if (match && Number.isSafeInteger(number)) numbers.add(number);
  }
  return [...numbers].sort((a, b) => a - b);
}

export async function sweepClosedPullRequests(options: SweepOptions): Promise<SweepOutcome> {
  const { logger } = options;
  const max = options.maxReviews ?? MAX_SWEPT_REVIEWS;
  const all = previewedPullRequests(options.slugs, options.prefix);
  const numbers = all.slice(0, max);
  if (all.length > max) {
    logger.warning(
      `${all.length} pull requests have previews; this sweep looks at the first ${max} (#${numbers[0]}–#${numbers.at(-1)}), the next sweep at the others.`,
    );
  }
  const outcome: SweepOutcome = { closed: [], open: [], unknown: [], results: [] };
  for (const number of numbers) {
    let state: "open" | "closed";
    try {
      state = await options.states.state(number);
    } catch (error) {
      outcome.unknown.push(number);
      const reason = error instanceof Error ? error.message : String(error);
      logger.warning(
        escapeUntrusted(
          `Could not tell whether pull request #${number} is closed (${reason}); its previews are kept.`,
        ),
      );
      continue;
    }
    if (state === "open") {
      outcome.open.push(number);
      continue;
    }
    outcome.closed.push(number);
    logger.info(`Pull request #${number} is closed: cleaning up its previews.`);
    outcome.results.push(...(await options.cleanUp(number)));
  }
  logger.info(
    `Cleanup sweep: ${outcome.closed.length} closed, ${outcome.open.length} open, ${outcome.unknown.length} unknown of ${numbers.length} pull request(s) with previews.`,
  );
  return outcome;
}
