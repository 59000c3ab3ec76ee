import { escapeUntrusted } from "../text/log-protocol.ts";
import { GitBookApiError, GitBookConnectionError, GitBookTimeoutError, NotFoundError } from "./errors.ts";

/**
 * A short code and a message for an error thrown while talking to the service. What the service said
 * (its error message) is escaped with {@link escapeUntrusted}: it stays on the message's line and can
 * start no workflow command, in the log, the annotations, the summary and the comment alike.
 */
export function describeServiceError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof GitBookApiError) return { code: `HTTP_${error.status}`, message: inert(error) };
  if (error instanceof GitBookTimeoutError) return { code: "REQUEST_TIMEOUT", message };
  if (error instanceof GitBookConnectionError) return { code: "NETWORK_ERROR", message };
  return { code: "ERROR", message };
}

export function isNotFound(error: unknown): boolean {
  return error instanceof NotFoundError;
}

/** The error's message with the service's own words escaped where they appear in it. */
function inert(error: GitBookApiError): string {
  const said = error.serviceMessage;
  if (said === undefined || said === "") return error.message;
  const escaped = escapeUntrusted(said);
  return escaped === said ? error.message : error.message.replace(said, () => escaped);
}
