/**
 * The comment store of a review host's REST API (GitHub's issue comments, GitLab's merge request notes,
 * Bitbucket Cloud's pull request comments): list a page, create, update, delete, each answer checked by
 * the host's own parser. The hosts differ only in paths, page query, how pages link, update method, the
 * request's shape and how a comment is read; what is done with the comments is src/core/review-thread's.
 */
import type { StoredComment } from "../../core/review-thread/own-comment.ts";
import type { CommentStore } from "../../core/review-thread/thread.ts";
import { type AnswerCap, type HostClient, nextPage, ReviewHostError } from "./host-client.ts";

export interface RestCommentStoreOptions {
  client: HostClient;
  /** "GitHub" or "GitLab": starts every message. */
  host: string;
  /** What one comment is called in messages: "comment", "note". */
  noun: string;
  /** The list's path (GET pages, POST a new one). */
  list: string;
  /** One comment's path (update, delete); `{list}/{id}` by default. */
  one?(id: number): string;
  /** The query of page `number` (1 first). */
  pageQuery(number: number): Record<string, string | number>;
  /** PATCH (GitHub) or PUT (GitLab, Bitbucket): both idempotent. */
  updateMethod: "PATCH" | "PUT";
  /** The JSON sent to create or update a comment with `body`; `{ body }` by default. */
  payload?(body: string): unknown;
  /**
   * How a page answers: a JSON array, the next page named by headers (GitHub, GitLab; the default), or
   * Bitbucket's `{ values, next }`, whose `next` address is followed only below the list's own path.
   */
  pages?: "array" | "values";
  caps: { page: AnswerCap; comment: AnswerCap; deletion: AnswerCap };
  /** One comment of an answer, checked field by field; undefined for one to ignore. */
  parse(value: unknown): StoredComment | undefined;
}

export function restCommentStore(options: RestCommentStoreOptions): CommentStore {
  const { client, host, noun, list, caps } = options;
  const written = (data: unknown, call: string): StoredComment => {
    const comment = options.parse(data);
    if (!comment) throw new ReviewHostError(`${host} ${call} answered no ${noun}.`, undefined, false);
    return comment;
  };
  const payload = options.payload ?? ((body: string) => ({ body }));
  const one = options.one ?? ((id: number) => `${list}/${id}`);
  // Bitbucket's pages: the query of each page its previous page named.
  const queries = new Map<number, Record<string, string | number>>();
  return {
    async page(number) {
      const query =
        options.pages !== "values" || number === 1 ? options.pageQuery(number) : queries.get(number);
      if (query === undefined)
        throw new Error(`${host}: page ${number} of the ${noun}s was not named by page ${number - 1}.`);
      const answer = await client.send({ method: "GET", path: list, query, cap: caps.page });
      const values =
        options.pages === "values" && typeof answer.data === "object" && answer.data !== null
          ? (answer.data as { values?: unknown }).values
          : answer.data;
      if (!Array.isArray(values)) {
        throw new ReviewHostError(
          `${host} GET ${list} did not answer a list of ${noun}s.`,
          answer.status,
          false,
        );
      }
      const comments = values.map(options.parse).filter((c): c is StoredComment => c !== undefined);
      if (options.pages !== "values") return { comments, next: nextPage(answer.headers, number) };
      const next = nextQuery((answer.data as { next?: unknown }).next, `${client.baseUrl}${list}`);
      if (next === "elsewhere") {
        throw new ReviewHostError(
          `${host} GET ${list} named a next page outside ${list}.`,
          answer.status,
          false,
        );
      }
      if (next === undefined) return { comments, next: undefined };
      queries.set(number + 1, next);
      return { comments, next: number + 1 };
    },
    async create(body) {
      const { data } = await client.send({
        method: "POST",
        path: list,
        body: payload(body),
        cap: caps.comment,
      });
      return written(data, `POST ${list}`);
    },
    async update(id, body) {
      const path = one(id);
      const method = options.updateMethod;
      const { data } = await client.send({
        method,
        path,
        body: payload(body),
        cap: caps.comment,
        idempotent: true,
      });
      return written(data, `${method} ${path}`);
    },
    async remove(id) {
      try {
        await client.send({ method: "DELETE", path: one(id), cap: caps.deletion });
      } catch (error) {
        if (!(error instanceof ReviewHostError && error.status === 404)) throw error;
      }
    },
  };
}

/**
 * The query of the page a `next` address names, when it is the list's own address (same origin and
 * path); "elsewhere" for any other address, so that a request never leaves the list, whatever a page
 * says; undefined on the last page.
 */
function nextQuery(next: unknown, listUrl: string): Record<string, string> | "elsewhere" | undefined {
  if (next === undefined || next === null || next === "") return undefined;
  if (typeof next !== "string") return "elsewhere";
  try {
    const url = new URL(next);
    const own = new URL(listUrl);
    if (url.origin !== own.origin || decodeURI(url.pathname) !== decodeURI(own.pathname)) return "elsewhere";
    return Object.fromEntries(url.searchParams);
  } catch {
    return "elsewhere";
  }
}
