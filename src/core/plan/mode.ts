import type { SyncMode } from "../ports.ts";
import type { RequestedMode } from "./run-settings.ts";

/**
 * What a run does, from the mode asked for and the pull or merge request it runs on (undefined: none):
 * `auto` previews an open one, cleans up after a closed one and publishes otherwise; a closed one's
 * previews are cleaned up, never published again (`preview` too). `preview` and `cleanup` (the CLI's)
 * without one throw what `missing` makes, in the host's words.
 */
export function resolveMode(
  requested: RequestedMode | "cleanup",
  review: { closed: boolean } | undefined,
  missing: (requested: "preview" | "cleanup") => Error,
): SyncMode {
  if (requested === "check" || requested === "publish") return requested;
  if (review === undefined) {
    if (requested === "auto") return "publish";
    throw missing(requested);
  }
  return requested === "cleanup" || review.closed ? "cleanup" : "preview";
}
