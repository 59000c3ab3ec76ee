import type { ProcessErrorCode } from "../../src/core/service/types.ts";

export type FetchOutcome =
  | { ok: true; text: string }
  | { ok: false; code: ProcessErrorCode; message: string };

/**
 * Fetches a URL source as the service does. A response slower than `timeoutMs` (headers and body) is a
 * FETCH_TIMEOUT; a connection error or a status outside 2xx is a FETCH_ERROR. `cancel` aborts silently.
 */
export async function fetchSource(
  url: string,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<FetchOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([timeout, cancel]);
  try {
    const response = await fetch(url, { signal, redirect: "follow" });
    if (!response.ok) {
      await response.body?.cancel();
      return {
        ok: false,
        code: "FETCH_ERROR",
        message: `GET ${url} answered ${response.status} ${response.statusText}`.trimEnd(),
      };
    }
    return { ok: true, text: await response.text() };
  } catch (error) {
    if (timeout.aborted) {
      return {
        ok: false,
        code: "FETCH_TIMEOUT",
        message: `GET ${url} did not answer within ${timeoutMs} ms`,
      };
    }
    return { ok: false, code: "FETCH_ERROR", message: `GET ${url} failed: ${describeNetworkError(error)}` };
  }
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code} (${cause.message})` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
