import type { Page } from "../../src/core/service/types.ts";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** A `limit` or `page` query parameter the emulator cannot honour; answered with 400. */
export class PaginationError extends Error {
  override name = "PaginationError";
}

export interface PageRequest {
  limit: number;
  /** Sequence number of the last item of the previous page. */
  after?: number;
}

/** An item of a list with its position in creation order, which never changes once given. */
export interface Sequenced<T> {
  seq: number;
  value: T;
}

/**
 * Reads `limit` and `page`. `limit` is an integer from 1 to 1000 (the published description allows 0,
 * which would return pages without items; the emulator rejects it). `page` is a token issued by an earlier
 * page of the same list (`listKey`); it names the last item seen, so that deletions between two requests
 * neither skip nor repeat items.
 */
export function parsePageQuery(query: URLSearchParams, listKey: string): PageRequest {
  const limitText = query.get("limit");
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== null) {
    if (!/^\d+$/.test(limitText)) {
      throw new PaginationError(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got "${limitText}"`);
    }
    limit = Number(limitText);
    if (limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new PaginationError(`limit must be from 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
    }
  }
  const page = query.get("page");
  if (page === null) return { limit };
  const after = decodePageToken(page, listKey);
  if (after === undefined) {
    throw new PaginationError(
      `page "${page}" is not a page identifier of this list; pass the next.page value of a previous response`,
    );
  }
  return { limit, after };
}

export function paginate<T>(
  entries: readonly Sequenced<T>[],
  request: PageRequest,
  listKey: string,
): Page<T> {
  const after = request.after;
  const remaining = after === undefined ? entries : entries.filter((e) => e.seq > after);
  const slice = remaining.slice(0, request.limit);
  const page: Page<T> = { items: slice.map((e) => e.value), count: entries.length };
  const last = slice.at(-1);
  if (last !== undefined && remaining.length > slice.length) {
    page.next = { page: encodePageToken(listKey, last.seq) };
  }
  return page;
}

function encodePageToken(listKey: string, seq: number): string {
  return Buffer.from(JSON.stringify([listKey, seq])).toString("base64url");
}

function decodePageToken(token: string, listKey: string): number | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [key, seq] = decoded;
    return key === listKey && Number.isSafeInteger(seq) ? (seq as number) : undefined;
  } catch {
    return undefined;
  }
}
