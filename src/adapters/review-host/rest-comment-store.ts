/**
 * The comment store of a review host's REST API (GitHub's issue comments, GitLab's merge request notes):
 * list a page, create, update, delete, each answer checked by the host's own parser. The hosts differ
 * only in paths, page query, update method and how a comment is read; what is done with the comments
 * is src/core/review-thread's.
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
  /** One comment's path (update, delete). */
  one(id: number): string;
  /** The query of page `number` (1 first). */
  pageQuery(number: number): Record<string, string | number>;
  /** PATCH (GitHub) or PUT (GitLab): both idempotent. */
  updateMethod: "PATCH" | "PUT";
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
  return {
    async page(number) {
      const answer = await client.send({
        method: "GET",
        path: list,
        query: options.pageQuery(number),
        cap: caps.page,
      });
      if (!Array.isArray(answer.data)) {
        throw new ReviewHostError(
          `${host} GET ${list} did not answer a list of ${noun}s.`,
          answer.status,
          false,
        );
      }
      const comments = answer.data.map(options.parse).filter((c): c is StoredComment => c !== undefined);
      return { comments, next: nextPage(answer.headers, number) };
    },
    async create(body) {
      const { data } = await client.send({ method: "POST", path: list, body: { body }, cap: caps.comment });
      return written(data, `POST ${list}`);
    },
    async update(id, body) {
      const path = options.one(id);
      const method = options.updateMethod;
      const { data } = await client.send({
        method,
        path,
        body: { body },
        cap: caps.comment,
        idempotent: true,
      });
      return written(data, `${method} ${path}`);
    },
    async remove(id) {
      try {
        await client.send({ method: "DELETE", path: options.one(id), cap: caps.deletion });
      } catch (error) {
        if (!(error instanceof ReviewHostError && error.status === 404)) throw error;
      }
    },
  };
}
