/**
 * Whether a pull request is still open, as its review host says: the one question the cleanup sweep
 * (core/previews/sweep.ts) asks where no close event starts a cleanup (Bitbucket, Azure DevOps).
 */
export interface PullRequestStates {
  /** "closed" for merged, declined, abandoned or superseded; throws when the host cannot say. */
  state(number: number): Promise<"open" | "closed">;
}
