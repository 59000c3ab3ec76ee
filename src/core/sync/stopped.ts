import { type DuplicateSlugError, describeCollision } from "../slugs/errors.ts";
import type { SpecResult } from "./result.ts";

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
