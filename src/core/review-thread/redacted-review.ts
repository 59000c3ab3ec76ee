import type { ReviewThread } from "../ports.ts";
import type { Redact } from "../text/redact.ts";
import { redactStrings } from "../text/redact.ts";

/** The review comment sees results with every secret redacted, as the summary and outputs do. */
export function redactedReview(thread: ReviewThread | undefined, redact: Redact): ReviewThread | undefined {
  if (!thread) return undefined;
  return {
    recordedPreviews: () => thread.recordedPreviews(),
    publish: (run) => thread.publish({ ...run, results: redactStrings([...run.results], redact) }),
  };
}
