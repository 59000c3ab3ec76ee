/**
 * The one living comment of a pull or merge request, whatever the host: how it is found, written,
 * kept single when runs race, and never written twice by a POST that may have been applied. The host
 * modules (`github/comment.ts`, `gitlab/notes.ts`) only say how to list, create, edit and delete a
 * comment there, and who the token is.
 *
 * Runs race: two runs on one pull request can each find no comment and each create one; no host offers
 * a create-if-absent. So after creating, a run looks again. When it finds more than one of ours, the
 * oldest (lowest id, the same for every run that looks) is kept, the previews recorded in the others are
 * merged into it (a preview dropped from the record would never be cleaned up), and the others are
 * deleted. Every racing run that sees the duplicate converges on the same comment and the same union.
 */
import type { Logger } from "../logger.ts";
import type { ReviewThread } from "../ports.ts";
import {
  type CommentState,
  mergeCommentStates,
  readCommentState,
  replaceCommentState,
} from "../report/comment-state.ts";
import { reviewCommentBody } from "../report/review-comment.ts";
import type { ReviewHost } from "../report/review-host.ts";
import { ReviewHostError } from "./errors.ts";
import { type Account, isOwnComment, type StoredComment } from "./own-comment.ts";

export interface CommentPage {
  /** Oldest first. */
  comments: StoredComment[];
  /** The following page's number; undefined on the last page. */
  next: number | undefined;
}

/** A host's comments of one pull or merge request. Failures throw (a {@link ReviewHostError} over HTTP). */
export interface CommentStore {
  /** Page `number` of the comments, 1 first. */
  page(number: number): Promise<CommentPage>;
  create(body: string): Promise<StoredComment>;
  update(id: number, body: string): Promise<StoredComment>;
  /** Deletes one comment; one already gone counts as deleted. */
  remove(id: number): Promise<void>;
}

/** Pages read at most when looking for the comment: 10,000 comments at 100 a page. */
export const MAX_PAGES = 100;

/**
 * Every comment of instance `key` written by `account`, oldest (lowest id) first. Reads at most
 * `maxPages` pages; beyond that it throws rather than answer "none", which would make a second comment.
 */
export async function findOwnComments(
  store: CommentStore,
  key: string,
  account: Account,
  maxPages = MAX_PAGES,
): Promise<StoredComment[]> {
  const own: StoredComment[] = [];
  let page = 1;
  for (let read = 0; read < maxPages; read++) {
    const { comments, next } = await store.page(page);
    for (const comment of comments) if (isOwnComment(comment, key, account)) own.push(comment);
    if (next === undefined) return own.sort((a, b) => a.id - b.id);
    page = next;
  }
  throw new Error(
    `Read ${maxPages} pages of comments without reaching the last; stopped looking rather than take the action's comment for missing and write a second one.`,
  );
}

export interface WriteOutcome {
  action: "created" | "updated" | "unchanged";
  /** The comment that remains. */
  comment: StoredComment;
  /** Duplicates of ours (a concurrent run's) merged into `comment` and deleted. */
  removed: number[];
  /** Duplicates that could not be deleted, and why. */
  left: { id: number; error: unknown }[];
}

/**
 * Writes `body` as the one comment of instance `key`. `seen` is what the run read its recorded state
 * from ({@link findOwnComments} earlier in the run), undefined when that lookup failed: the comments are
 * then listed now. A comment of ours that the run did not see, or that changed since, holds state the
 * body does not account for: it is merged in.
 */
export async function writeOwnComment(
  store: CommentStore,
  key: string,
  account: Account,
  body: string,
  seen?: readonly StoredComment[],
): Promise<WriteOutcome> {
  const known = new Map((seen ?? []).map((comment) => [comment.id, comment.body]));
  const own = seen ?? (await findOwnComments(store, key, account));
  if (own.length > 0) return settle(store, key, body, own, known, undefined);

  let created: StoredComment;
  try {
    created = await store.create(body);
  } catch (error) {
    if (!(error instanceof ReviewHostError) || !error.mayHaveApplied) throw error;
    // No answer, or a 5xx: the comment may exist now. Look before sending the POST a second time.
    const after = await findOwnComments(store, key, account);
    if (after.length > 0) return settle(store, key, body, after, known, undefined);
    created = await store.create(body);
  }
  // Another run may have created one too: look again, now that ours is there.
  let after: StoredComment[];
  try {
    after = await findOwnComments(store, key, account);
  } catch {
    // Ours is written; a duplicate, if any, is merged by the next run that finds both.
    return { action: "created", comment: created, removed: [], left: [] };
  }
  if (!after.some((comment) => comment.id !== created.id)) {
    return { action: "created", comment: created, removed: [], left: [] };
  }
  // A listing may lag behind a create: ours is settled with the others even when it does not show yet.
  const all = after.some((comment) => comment.id === created.id) ? after : [...after, created];
  return settle(store, key, body, all, known, created);
}

/** Keeps the oldest of `own`, writes `body` with every state merged into it, deletes the rest. */
async function settle(
  store: CommentStore,
  key: string,
  body: string,
  own: readonly StoredComment[],
  known: ReadonlyMap<number, string>,
  created: StoredComment | undefined,
): Promise<WriteOutcome> {
  const [keep, ...others] = [...own].sort((a, b) => a.id - b.id);
  if (!keep) throw new Error("settle() needs at least one comment");
  const unseen = own.filter((c) => c.id !== created?.id && known.get(c.id) !== c.body);
  const final = withStates(
    body,
    key,
    unseen.map((c) => readCommentState(c.body, key)),
  );

  let comment = keep;
  let action: WriteOutcome["action"];
  if (keep.body === final) {
    action = known.has(keep.id) ? "unchanged" : "created";
  } else {
    comment = await store.update(keep.id, final);
    action = keep.id === created?.id ? "created" : "updated";
  }
  const removed: number[] = [];
  const left: WriteOutcome["left"] = [];
  for (const other of others) {
    try {
      await store.remove(other.id);
      removed.push(other.id);
    } catch (error) {
      left.push({ id: other.id, error });
    }
  }
  return { action, comment, removed, left };
}

/** `body` recording also the previews of `others`; `body` itself when they add none. */
function withStates(body: string, key: string, others: (CommentState | undefined)[]): string {
  const own = readCommentState(body, key);
  const merged = mergeCommentStates(own, ...others);
  const before = new Set(own?.previews ?? []);
  if (merged.previews.every((slug) => before.has(slug))) return body;
  return replaceCommentState(body, key, merged);
}

/** The host's words for the messages about its comment. */
export interface ThreadWords {
  /** "the pull request comment", "the note on merge request !12". */
  subject: string;
  /** "Pull request comment", "Merge request note". */
  title: string;
  /** The warning when the token's account is unknown: nothing is then read or written. */
  identityUnknown(error: unknown): string;
  /** What to add to a warning about `error` (a permission to grant, with a leading space); "" for none. */
  advice(error: unknown): string;
  /** `error` as a message, with every piece of the token taken out. */
  reason(error: unknown): string;
}

export interface ReviewThreadOptions {
  store: CommentStore;
  /** The account the token acts as; throws when the host does not say. */
  identify(): Promise<Account>;
  /** The `comment-key`: which instance's comment. */
  key: string;
  host: ReviewHost;
  /** The pull request's number or the merge request's IID. */
  number: number;
  logger: Logger;
  words: ThreadWords;
}

/**
 * The sync core's review port over a host's {@link CommentStore}. The token's account and the comment
 * are each looked up once per run. Every failure is a warning, never the run's failure: without the
 * token's account nothing is read or written, since a stranger's comment can carry our marker.
 */
export function createReviewThread(options: ReviewThreadOptions): ReviewThread {
  const { store, key, logger, words } = options;
  let identity: Promise<Account | undefined> | undefined;
  const account = () => {
    identity ??= options.identify().then(
      (found) => found,
      (error: unknown) => {
        logger.warning(words.identityUnknown(error));
        return undefined;
      },
    );
    return identity;
  };
  let lookup: Promise<StoredComment[]> | undefined;
  const ownComments = (found: Account) => {
    lookup ??= findOwnComments(store, key, found);
    return lookup;
  };

  let recorded: Promise<string[]> | undefined;
  const recordedPreviews = (): Promise<string[]> => {
    recorded ??= (async () => {
      const found = await account();
      if (!found) return [];
      try {
        const own = await ownComments(found);
        return mergeCommentStates(...own.map((comment) => readCommentState(comment.body, key))).previews;
      } catch (error) {
        logger.warning(`Could not read ${words.subject}: ${words.reason(error)}${words.advice(error)}`);
        return [];
      }
    })();
    return recorded.then((previews) => [...previews]);
  };

  return {
    recordedPreviews,
    async publish(run) {
      const earlier = await recordedPreviews();
      const { body } = reviewCommentBody({ key, host: options.host, number: options.number, run, earlier });
      const found = await account();
      if (!found) return undefined;
      try {
        // When the lookup failed, the comments are listed again: that try reports why, if it fails too.
        const seen = await ownComments(found).catch(() => undefined);
        const outcome = await writeOwnComment(store, key, found, body, seen);
        logger.info(`${words.title} ${outcome.action}: ${outcome.comment.url}`);
        if (outcome.removed.length > 0) {
          logger.info(
            `${words.title}: ${outcome.removed.length} duplicate(s) written by a concurrent run merged into it and deleted (id ${outcome.removed.join(", ")}).`,
          );
        }
        for (const { id, error } of outcome.left) {
          logger.warning(
            `Could not delete a duplicate of ${words.subject} (id ${id}): ${words.reason(error)}${words.advice(error)}`,
          );
        }
        return outcome.comment.url;
      } catch (error) {
        logger.warning(`Could not write ${words.subject}: ${words.reason(error)}${words.advice(error)}`);
        return undefined;
      }
    },
  };
}
