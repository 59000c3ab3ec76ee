/** A side or a comparison that could not be had; `reason` completes "not reviewed: …". */
export class NotReviewedError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`not reviewed: ${reason}`);
    this.name = "NotReviewedError";
    this.reason = reason;
  }
}
