import type { RunContext } from "../../adapters/github/context.ts";
import { InputError } from "../../core/plan/input-error.ts";
import { resolveMode as resolveRunMode } from "../../core/plan/mode.ts";
import type { RequestedMode } from "../../core/plan/run-settings.ts";
import type { SyncMode } from "../../core/ports.ts";

/** The run's mode (core/plan/mode.ts) on this workflow run's event. */
export function resolveMode(requested: RequestedMode, context: RunContext): SyncMode {
  const pullRequest = context.pullRequest;
  const review = pullRequest && { closed: pullRequest.action === "closed" };
  return resolveRunMode(
    requested,
    review,
    (mode) =>
      new InputError(
        "mode",
        `'${mode}' needs a pull_request or pull_request_target event (this run is '${context.eventName || "unknown"}'); use 'publish' or 'auto'.`,
      ),
  );
}
