/**
 * Whether a pull request is still open, for hosts with no "closed" event (Bitbucket, Azure DevOps): the
 * cleanup sweep deletes the previews of the closed ones. Throws when the host does not answer.
 */
export interface PullRequestStates {
  state(number: number): Promise<"open" | "closed">;
}
