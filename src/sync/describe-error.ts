/** A short code and a message for an error thrown while talking to the service. */
export function describeServiceError(error: unknown): { code: string; message: string } {
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") return { code: `HTTP_${status}`, message: error.message };
    if (error.name.includes("Timeout")) return { code: "REQUEST_TIMEOUT", message: error.message };
    if (error.name.includes("Connection")) return { code: "NETWORK_ERROR", message: error.message };
    return { code: "ERROR", message: error.message };
  }
  return { code: "ERROR", message: String(error) };
}
