import { DuplicateSlugError, describeCollision } from "../slugs/errors.ts";
import type { SpecResult } from "./result.ts";

/**
 * The results of a run that stopped before any upload, so that every mode still reports each spec it
 * knew of with the reason: files in a slug collision fail with their collision and its fix; every
 * other file is skipped, carrying the reason the run stopped.
 */
export function stoppedRunResults(slugsByFile: ReadonlyMap<string, string>, error: unknown): SpecResult[] {
  const reason = error instanceof Error ? error.message : String(error);
  if (!(error instanceof DuplicateSlugError)) {
    return [...slugsByFile].map(([file, slug]) => skipped(file, slug, `Not uploaded: ${reason}`));
  }
  const collided = new Map(collisionResults(error).map((result) => [result.file, result]));
  return [...error.assigned].map(
    ([file, slug]): SpecResult =>
      collided.get(file) ??
      skipped(
        file,
        slug,
        "Not uploaded: slug collisions between other files stopped the run before any upload.",
      ),
  );
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

function skipped(file: string, slug: string, reason: string): SpecResult {
  return { file, slug, status: "skipped", errors: [reason] };
}
