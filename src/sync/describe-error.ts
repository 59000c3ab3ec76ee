import {
  GitBookApiError,
  GitBookConnectionError,
  GitBookTimeoutError,
  NotFoundError,
} from "../client/index.ts";

/** A short code and a message for an error thrown while talking to the service. */
export function describeServiceError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof GitBookApiError) return { code: `HTTP_${error.status}`, message };
  if (error instanceof GitBookTimeoutError) return { code: "REQUEST_TIMEOUT", message };
  if (error instanceof GitBookConnectionError) return { code: "NETWORK_ERROR", message };
  return { code: "ERROR", message };
}

export function isNotFound(error: unknown): boolean {
  return error instanceof NotFoundError;
}
