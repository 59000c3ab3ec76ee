/**
 * Which comments of a pull or merge request are the action's: the one rule, for every host. A
 * hidden marker is text anyone can write, and a login or username can be chosen to look like ours; an
 * account id cannot. A comment is ours only when it carries this instance's marker and was written by
 * the very account the token acts as: same id and same kind of account.
 */
import { commentMarker } from "../report/comment-state.ts";

/** An account as a host identifies it. */
export interface Account {
  /**
   * The host's account id: GitHub's `user.id` / GraphQL `databaseId`, GitLab's `author.id` (numbers),
   * Azure DevOps' identity id (a GUID, lowercased), Bitbucket Cloud's `user.uuid`.
   */
  id: number | string;
  /**
   * The kind of account: GitHub's `user.type` ("User", "Bot", "Organization"); GitLab has one kind,
   * "User" (its bots are users with ids of their own); Azure DevOps one, "Identity".
   */
  kind: string;
}

/** A comment (GitHub, Azure DevOps) or note (GitLab) as read from the host, checked field by field. */
export interface StoredComment {
  /** Grows with creation; on Azure DevOps it encodes the thread and the comment in it. */
  id: number;
  body: string;
  /** Undefined when the host names no author (a deleted account) or a malformed one. */
  author: Account | undefined;
  /** The comment's page, for the log and the `comment-url` output. */
  url: string;
}

export function isSameAccount(author: Account | undefined, account: Account): boolean {
  return author !== undefined && author.id === account.id && author.kind === account.kind;
}

/** Whether `comment` is the comment of action instance `key`, written by the token's `account`. */
export function isOwnComment(comment: StoredComment, key: string, account: Account): boolean {
  return isSameAccount(comment.author, account) && comment.body.includes(commentMarker(key));
}
