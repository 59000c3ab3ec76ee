import type { RunContext } from "../../adapters/github/context.ts";
import { InputError } from "../../core/plan/input-error.ts";
import type { RequestedMode } from "../../core/plan/run-settings.ts";
import type { SyncMode } from "../../core/ports.ts";

/** What this run does: `cleanup` deletes a closed pull request's previews. */
export type EffectiveMode = SyncMode;

/** `auto` previews on pull requests and publishes otherwise; a closed pull request cleans up its previews. */
export function resolveMode(requested: RequestedMode, context: RunContext): EffectiveMode {
  const pullRequest = context.pullRequest;
  if (requested === "check" || requested === "publish") return requested;
  if (requested === "preview" && !pullRequest) {
    throw new InputError(
      "mode",
      `'preview' needs a pull_request or pull_request_target event (this run is '${context.eventName || "unknown"}'); use 'publish' or 'auto'.`,
    );
  }
  if (!pullRequest) return "publish";
  return pullRequest.action === "closed" ? "cleanup" : "preview";
}
