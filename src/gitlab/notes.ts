import type { Dispatcher } from "undici";
import type { Logger } from "../logger.ts";
import { commentMarker, readCommentState } from "../report/comment-state.ts";
import { type ReviewComments, reviewCommentBody } from "../report/review-comment.ts";
import { GITLAB_REVIEW } from "../report/review-host.ts";
import { createGitLabClient, GitLabApiError, type GitLabClient } from "./api.ts";
import type { GitLabContext } from "./context.ts";

/** Which merge request, which instance's note, and whose notes count as ours. */
export interface NoteTarget {
  /** `CI_PROJECT_ID` (or a full path), URL-encoded here. */
  projectId: string;
  iid: number;
  /** The `comment-key`; sanitized by the marker code. */
  key: string;
  /** The token's own user id ({@link findTokenUser}): only notes this user wrote are ours. */
  authorId: number;
}

export interface FoundNote {
  id: number;
  body: string;
}

export type UpsertNoteResult =
  | { action: "created" | "updated" | "unchanged"; id: number }
  /** The token may not read or write notes (401/403): a missing `api` scope or too low a role. */
  | { action: "forbidden"; message: string };

export interface TokenUser {
  id: number;
  username: string;
}

/** Notes asked for per page: GitLab's maximum. */
const PER_PAGE = 100;
/** Pages read at most when looking for the note: 10,000 notes, twice GitLab's limit per merge request. */
export const MAX_NOTE_PAGES = 100;

/** The user the token acts as (`GET /user`); for a project access token, the project's bot user. */
export async function findTokenUser(client: GitLabClient): Promise<TokenUser> {
  const { data } = await client.send({ method: "GET", path: "/user" });
  const id = (data as { id?: unknown } | undefined)?.id;
  const username = (data as { username?: unknown } | undefined)?.username;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) {
    throw new GitLabApiError("GitLab GET /user named no user id for the token.", undefined, false);
  }
  return { id, username: typeof username === "string" ? client.redact(username) : "" };
}

/**
 * The first note on the merge request written by the token's user whose body contains this instance's
 * marker; a note by anyone else is never ours, whatever it contains. Pages through the notes, oldest
 * first, 100 a page, following `x-next-page` (or the `Link` header's rel="next"), for at most
 * `maxPages` pages; beyond that it throws rather than answer "none", which would make a second note.
 */
export async function findOwnNote(
  client: GitLabClient,
  target: NoteTarget,
  maxPages = MAX_NOTE_PAGES,
): Promise<FoundNote | undefined> {
  const marker = commentMarker(target.key);
  let page = 1;
  for (let read = 0; read < maxPages; read++) {
    const answer = await client.send({
      method: "GET",
      path: notesPath(target),
      query: { sort: "asc", order_by: "created_at", per_page: PER_PAGE, page },
    });
    if (!Array.isArray(answer.data)) {
      throw new GitLabApiError(
        `GitLab GET ${notesPath(target)} did not answer a list of notes.`,
        answer.status,
        false,
      );
    }
    for (const note of answer.data) {
      const found = ownNote(note, marker, target.authorId);
      if (found) return found;
    }
    const next = nextPage(answer.headers, page);
    if (next === undefined) return undefined;
    page = next;
  }
  throw new GitLabApiError(
    `Merge request !${target.iid} has more than ${maxPages * PER_PAGE} notes; stopped looking for the action's note.`,
    undefined,
    false,
  );
}

/**
 * Edits `existing` in place, or leaves it when it already says `body`; without one, looks again (another
 * pipeline may have written it meanwhile) and creates it. A POST that may have been applied without an
 * answer is not sent again blindly: the notes are read once more first. A 401 or 403 is returned as
 * `forbidden` for the caller to warn about; other failures throw {@link GitLabApiError}.
 */
export async function writeOwnNote(
  client: GitLabClient,
  target: NoteTarget & { body: string },
  existing: FoundNote | undefined,
): Promise<UpsertNoteResult> {
  try {
    if (existing) return await edit(client, target, existing);
    const meanwhile = await findOwnNote(client, target);
    if (meanwhile) return await edit(client, target, meanwhile);
    try {
      return await create(client, target);
    } catch (error) {
      if (!(error instanceof GitLabApiError) || !error.mayHaveApplied) throw error;
      // No answer to the POST: it may have been applied. Look before sending it a second time.
      const afterAll = await findOwnNote(client, target);
      if (afterAll) return await edit(client, target, afterAll);
      return await create(client, target);
    }
  } catch (error) {
    if (error instanceof GitLabApiError && (error.status === 401 || error.status === 403)) {
      return { action: "forbidden", message: error.message };
    }
    throw error;
  }
}

/** {@link findOwnNote} then {@link writeOwnNote}. */
export async function upsertOwnNote(
  client: GitLabClient,
  target: NoteTarget & { body: string },
): Promise<UpsertNoteResult> {
  let existing: FoundNote | undefined;
  try {
    existing = await findOwnNote(client, target);
  } catch (error) {
    if (error instanceof GitLabApiError && (error.status === 401 || error.status === 403)) {
      return { action: "forbidden", message: error.message };
    }
    throw error;
  }
  return writeOwnNote(client, target, existing);
}

export interface MergeRequestNotesOptions {
  context: Pick<
    GitLabContext,
    "apiUrl" | "projectId" | "projectPath" | "projectUrl" | "token" | "hasJobToken" | "mergeRequest"
  >;
  /** The merge request; `context.mergeRequest.iid` by default (a cleanup job names it explicitly). */
  mergeRequestIid?: number;
  /** The `comment-key`: identifies this instance's note. */
  commentKey: string;
  logger: Logger;
  /** Epoch milliseconds after which no GitLab request is sent or waited for. */
  deadline: number;
  /** Longest wait for one answer; default 30 s. */
  requestTimeoutMs?: number;
  /** First pause before a retry; default 1 s. */
  retryDelayMs?: number;
  /** The undici dispatcher (for a proxy); undici's global one by default. */
  dispatcher?: Dispatcher;
}

/**
 * The merge request's one living note, as the run sees it: the same shape as GitHub's
 * `PullRequestComments`, so the sync core takes either as its review port. Undefined when the run is
 * not about a merge request, or (with a warning) when there is no `GITLAB_TOKEN` to write notes with.
 * Failures to read or write the note are warnings, never the run's failure.
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
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const place = { projectId: context.projectId, iid, key: options.commentKey };
  const where = `merge request !${iid}`;

  // Whose notes are ours: the token's user. Without it no note is read or written, since a stranger's
  // note can carry our marker.
  let identity: Promise<NoteTarget | undefined> | undefined;
  const target = () => {
    identity ??= findTokenUser(client).then(
      (user) => ({ ...place, authorId: user.id }),
      (error: unknown) => {
        logger.warning(
          `Could not find which GitLab user GITLAB_TOKEN acts as (GET /user: ${message(error, client)}); ` +
            `the note on ${where} is neither read nor written, since only a note written by that user is the action's.` +
            tokenAdvice(error),
        );
        return undefined;
      },
    );
    return identity;
  };
  // Looked up once per run: finding the note pages through every note of the merge request.
  let lookup: Promise<FoundNote | undefined> | undefined;
  const ownNote = (found: NoteTarget) => {
    lookup ??= findOwnNote(client, found);
    return lookup;
  };

  const recordedPreviews = async (): Promise<string[]> => {
    const found = await target();
    if (!found) return [];
    try {
      const note = await ownNote(found);
      return (note && readCommentState(note.body, options.commentKey)?.previews) || [];
    } catch (error) {
      logger.warning(`Could not read the note on ${where}: ${message(error, client)}${tokenAdvice(error)}`);
      return [];
    }
  };

  return {
    recordedPreviews,
    async publish(run) {
      const earlier = await recordedPreviews();
      const { body } = reviewCommentBody({
        key: options.commentKey,
        host: GITLAB_REVIEW,
        number: iid,
        run,
        earlier,
      });
      const found = await target();
      if (!found) return undefined;
      try {
        const outcome = await ownNote(found).then(
          (existing) => writeOwnNote(client, { ...found, body }, existing),
          // The lookup failed earlier: one more try, which reports why (e.g. a 403) as upserting does.
          () => upsertOwnNote(client, { ...found, body }),
        );
        if (outcome.action === "forbidden") {
          logger.warning(`Could not write the note on ${where}: ${outcome.message}${tokenAdvice(403)}`);
          return undefined;
        }
        const url = noteUrl(context, iid, outcome.id);
        logger.info(`Merge request note ${outcome.action}: ${url}`);
        return url;
      } catch (error) {
        logger.warning(`Could not write the note on ${where}: ${message(error, client)}`);
        return undefined;
      }
    },
  };
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

function notesPath(target: Pick<NoteTarget, "projectId" | "iid">): string {
  return `/projects/${encodeURIComponent(target.projectId)}/merge_requests/${target.iid}/notes`;
}

async function edit(
  client: GitLabClient,
  target: NoteTarget & { body: string },
  existing: FoundNote,
): Promise<UpsertNoteResult> {
  if (existing.body === target.body) return { action: "unchanged", id: existing.id };
  await client.send({
    method: "PUT",
    path: `${notesPath(target)}/${existing.id}`,
    body: { body: target.body },
  });
  return { action: "updated", id: existing.id };
}

async function create(
  client: GitLabClient,
  target: NoteTarget & { body: string },
): Promise<UpsertNoteResult> {
  const { data } = await client.send({
    method: "POST",
    path: notesPath(target),
    body: { body: target.body },
  });
  const id = (data as { id?: unknown } | undefined)?.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id)) {
    throw new GitLabApiError(`GitLab POST ${notesPath(target)} answered no note id.`, undefined, false);
  }
  return { action: "created", id };
}

/** The note as ours when the token's user wrote it and it carries our marker; checked field by field. */
function ownNote(note: unknown, marker: string, authorId: number): FoundNote | undefined {
  if (typeof note !== "object" || note === null) return undefined;
  const { id, body, author, system } = note as {
    id?: unknown;
    body?: unknown;
    author?: unknown;
    system?: unknown;
  };
  if (system === true || typeof id !== "number" || !Number.isSafeInteger(id) || typeof body !== "string") {
    return undefined;
  }
  const author_id =
    typeof author === "object" && author !== null ? (author as { id?: unknown }).id : undefined;
  if (author_id !== authorId || !body.includes(marker)) return undefined;
  return { id, body };
}

/**
 * The next page from `x-next-page` (GitLab's header, empty on the last page), else from the `Link`
 * header's rel="next". Only the page number is taken, never the address, so a request never leaves the
 * API URL; a page that does not move forward ends the listing.
 */
export function nextPage(headers: Record<string, string>, current: number): number | undefined {
  const header = headers["x-next-page"]?.trim();
  let next: number | undefined;
  if (header !== undefined && header !== "") {
    next = /^\d{1,9}$/.test(header) ? Number(header) : undefined;
  } else if (header === undefined) {
    const link = headers.link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
    const target = link ? /<([^>]*)>/.exec(link)?.[1] : undefined;
    if (target) {
      try {
        const page = new URL(target).searchParams.get("page");
        next = page !== null && /^\d{1,9}$/.test(page) ? Number(page) : undefined;
      } catch {
        next = undefined;
      }
    }
  }
  return next !== undefined && next > current ? next : undefined;
}

function message(error: unknown, client: GitLabClient): string {
  return client.redact(error instanceof Error ? error.message : String(error));
}

function tokenAdvice(error: unknown): string {
  const status =
    typeof error === "number" ? error : error instanceof GitLabApiError ? error.status : undefined;
  if (status !== 401 && status !== 403) return "";
  return (
    " GITLAB_TOKEN must be a project (or group) access token with the api scope and at least the Reporter " +
    "role, not expired or revoked."
  );
}
