import type { Spec } from "../service/types.ts";

/**
 * The service is done with the last upload only in the `complete` state. `pending` and `progress` mean
 * it is still working; a state this version does not know yet is treated as still working too, so the
 * wait goes on until the timeout rather than reporting a result that may not exist.
 */
export function isBusy(spec: Spec): boolean {
  return spec.processingState !== "complete";
}

/**
 * Whether `observed` shows the end of the processing that followed the upload answered by `uploaded`,
 * rather than the result of an earlier upload that is still on the spec.
 *
 * When the upload's answer is busy, the next final state is ours. When it is already final (a service
 * that answers with the previous state, or that processed synchronously), the result is ours only if
 * processing ran again after the upload: a new `lastProcessedAt`, or one no older than the upload.
 */
export function isResultOfUpload(uploaded: Spec, observed: Spec): boolean {
  if (isBusy(observed)) return false;
  if (isBusy(uploaded)) return true;
  if (observed.lastProcessedAt !== uploaded.lastProcessedAt) return true;
  return processedSince(observed, uploaded.updatedAt);
}

function processedSince(spec: Spec, timestamp: string): boolean {
  if (!spec.lastProcessedAt) return false;
  const processed = Date.parse(spec.lastProcessedAt);
  const since = Date.parse(timestamp);
  return Number.isFinite(processed) && Number.isFinite(since) && processed >= since;
}

export interface ProcessingFailure {
  code: string;
  messages: string[];
}

/**
 * The failure the service reported for the spec's last processing, if any: any `lastProcessErrorCode`
 * that is present and not null, an empty one too (shown as `""`).
 */
export function processingFailure(spec: Spec): ProcessingFailure | undefined {
  if (spec.lastProcessErrorCode === undefined) return undefined;
  const messages = (spec.lastProcessedErrors ?? []).map((error) =>
    error.code ? `${error.code}: ${error.message}` : error.message,
  );
  const reported = spec.lastProcessedErrorCount ?? messages.length;
  if (reported > messages.length) {
    messages.push(`… and ${reported - messages.length} more errors reported by the service`);
  }
  const code = spec.lastProcessErrorCode === "" ? '""' : spec.lastProcessErrorCode;
  return { code, messages };
}
