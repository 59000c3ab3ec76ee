/** A call to a review host failed; the message names the call and the host's reason, never the token. */
export class ReviewHostError extends Error {
  override readonly name: string = "ReviewHostError";
  /** The HTTP status, when the host answered. */
  readonly status: number | undefined;
  /**
   * A POST that may have been applied although no success came back (no answer, a dropped connection
   * after sending, a timeout, a 5xx): look before sending it again.
   */
  readonly mayHaveApplied: boolean;

  constructor(message: string, status: number | undefined, mayHaveApplied: boolean, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.mayHaveApplied = mayHaveApplied;
  }
}
