/**
 * The merge request's note on GitLab: who the token is (`GET /user`), and the notes endpoints as a
 * `CommentStore` for the host-neutral thread (../../core/review-thread/thread.ts). Accounts are told apart
 * by id alone, never by username (docs/design/review-comment.md).
 */

import type { ReviewComments } from "../../core/report/review-comment.ts";
import { GITLAB_REVIEW } from "../../core/report/review-host.ts";
import type { Account, StoredComment } from "../../core/review-thread/own-comment.ts";
import { type CommentStore, createReviewThread } from "../../core/review-thread/thread.ts";
import { MiB } from "../http/limits.ts";
import type { AnswerCap, ReviewCommentOptions } from "../review-host/host-client.ts";
import { ReviewHostError, reviewHostCaps, tuningOf } from "../review-host/host-client.ts";
import { restCommentStore } from "../review-host/rest-comment-store.ts";
import { createGitLabClient, type GitLabClient } from "./api.ts";
import type { GitLabContext } from "./context.ts";

/** The largest answer of each kind of GitLab call. A note may hold 1,000,000 characters: 8 MiB. */
export const GITLAB_ANSWER_CAPS = {
  ...reviewHostCaps({ identity: "the token's user (GET /user)", page: "a page of notes" }),
  note: { bytes: 8 * MiB, kind: "one note" },
} as const satisfies Record<string, AnswerCap>;

/** GitLab's one kind of account. */
const USER = "User";

export interface TokenUser extends Account {
  username: string;
}

/** The user the token acts as (`GET /user`); for a project access token, the project's bot user. */
export async function findTokenUser(client: GitLabClient): Promise<TokenUser> {
  const { data } = await client.send({ method: "GET", path: "/user", cap: GITLAB_ANSWER_CAPS.identity });
  const { id, username } = (data ?? {}) as { id?: unknown; username?: unknown };
  if (!isAccountId(id)) {
    throw new ReviewHostError("GitLab GET /user named no user id for the token.", undefined, false);
  }
  return { id, kind: USER, username: typeof username === "string" ? username : "" };
}

/** The merge request whose notes these are. */
export interface NoteTarget {
  /** `CI_PROJECT_ID` (or a full path), URL-encoded here. */
  projectId: string;
  iid: number;
}

/**
 * The notes endpoints of one merge request: listed oldest first, 100 a page, following `x-next-page`
 * (or the `Link` header's rel="next"). `urlOf` gives a note's page.
 */
export function gitlabNoteStore(
  client: GitLabClient,
  target: NoteTarget,
  urlOf: (noteId: number) => string,
): CommentStore {
  return restCommentStore({
    client,
    host: "GitLab",
    noun: "note",
    list: notesPath(target),
    pageQuery: (number) => ({ sort: "asc", order_by: "created_at", per_page: 100, page: number }),
    updateMethod: "PUT",
    caps: { ...GITLAB_ANSWER_CAPS, comment: GITLAB_ANSWER_CAPS.note },
    parse: (value) => parseNote(value, urlOf),
  });
}

/** A note checked field by field; undefined for a system note or one without id or body. */
function parseNote(value: unknown, urlOf: (noteId: number) => string): StoredComment | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, body, author, system } = value as {
    id?: unknown;
    body?: unknown;
    author?: unknown;
    system?: unknown;
  };
  if (system === true || !isAccountId(id) || typeof body !== "string") return undefined;
  const authorId =
    typeof author === "object" && author !== null ? (author as { id?: unknown }).id : undefined;
  return {
    id,
    body,
    author: isAccountId(authorId) ? { id: authorId, kind: USER } : undefined,
    url: urlOf(id),
  };
}

function isAccountId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

export interface MergeRequestNotesOptions extends ReviewCommentOptions {
  context: Pick<
    GitLabContext,
    "apiUrl" | "projectId" | "projectPath" | "projectUrl" | "token" | "hasJobToken" | "mergeRequest"
  >;
  /** The merge request; `context.mergeRequest.iid` by default (a cleanup job names it explicitly). */
  mergeRequestIid?: number;
}

/**
 * The merge request's one living note, as the run sees it: the same port as GitHub's pull request
 * comment. Undefined when the run is not about a merge request, or (with a warning) when there is no
 * `GITLAB_TOKEN` to write notes with. Failures to read or write the note are warnings, never the run's
 * failure.
 */
export function createMergeRequestNotes(options: MergeRequestNotesOptions): ReviewComments | undefined {
  const { context, logger } = options;
  const iid = options.mergeRequestIid ?? context.mergeRequest?.iid;
  if (iid === undefined) return undefined;
  if (!Number.isSafeInteger(iid) || iid < 1) {
    throw new RangeError(`A merge request IID is a positive integer, not ${iid}`);
  }
  if (!context.token) {
    logger.warning(
      context.hasJobToken
        ? "No GITLAB_TOKEN variable: the merge request note is skipped. CI_JOB_TOKEN cannot write merge " +
            "request notes; create a project access token with the api scope and at least the Reporter role, " +
            "and store it as a masked CI/CD variable GITLAB_TOKEN."
        : "No GITLAB_TOKEN variable: the merge request note is skipped. Create a project access token with " +
            "the api scope and at least the Reporter role, and store it as a masked CI/CD variable GITLAB_TOKEN.",
    );
    return undefined;
  }
  const client = createGitLabClient({
    apiUrl: context.apiUrl,
    token: context.token,
    deadline: options.deadline,
    ...tuningOf(options),
  });
  const where = `merge request !${iid}`;
  const reason = (error: unknown) => client.redact(error instanceof Error ? error.message : String(error));
  return createReviewThread({
    store: gitlabNoteStore(client, { projectId: context.projectId, iid }, (id) => noteUrl(context, iid, id)),
    identify: () => findTokenUser(client),
    key: options.commentKey,
    host: GITLAB_REVIEW,
    number: iid,
    logger,
    words: {
      subject: `the note on ${where}`,
      title: "Merge request note",
      identityUnknown: (error) =>
        `Could not find which GitLab user GITLAB_TOKEN acts as (GET /user: ${reason(error)}); ` +
        `the note on ${where} is neither read nor written, since only a note written by that user is the action's.` +
        tokenAdvice(error),
      advice: tokenAdvice,
      reason,
    },
  });
}

/** The note's page: `<project URL>/-/merge_requests/<iid>#note_<id>`. */
export function noteUrl(
  context: Pick<GitLabContext, "apiUrl" | "projectId" | "projectPath" | "projectUrl">,
  iid: number,
  noteId: number,
): string {
  const server = context.apiUrl.replace(/\/api\/v4$/, "");
  const project =
    context.projectUrl ?? (context.projectPath ? `${server}/${context.projectPath}` : undefined);
  if (project) return `${project}/-/merge_requests/${iid}#note_${noteId}`;
  return `${context.apiUrl}${notesPath({ projectId: context.projectId, iid })}/${noteId}`;
}

function notesPath(target: NoteTarget): string {
  return `/projects/${encodeURIComponent(target.projectId)}/merge_requests/${target.iid}/notes`;
}

function tokenAdvice(error: unknown): string {
  const status = error instanceof ReviewHostError ? error.status : undefined;
  if (status !== 401 && status !== 403) return "";
  return (
    " GITLAB_TOKEN must be a project (or group) access token with the api scope and at least the Reporter " +
    "role, not expired or revoked."
  );
}
