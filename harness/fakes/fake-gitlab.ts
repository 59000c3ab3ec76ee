/**
 * A fake of GitLab's REST API v4 (user and merge request notes) on a loopback socket, for tests that
 * drive the real notes client (`CI_API_V4_URL=fake.apiUrl`).
 *
 * Implemented, under `apiUrl` (which carries `pathPrefix`, "/api/v4" by default):
 * - `GET  /user` — the user the `PRIVATE-TOKEN` header's token acts as; 401 for an unknown token
 * - `GET  /projects/{id}/merge_requests/{iid}/notes?per_page=&page=&sort=` — `per_page` 20 by default and
 *   at most 100, `sort` "desc" by default as GitLab's; answered with `x-next-page`, `x-page`,
 *   `x-per-page`, `x-prev-page`, `x-total`, `x-total-pages` and a `Link` header (see `pagination`)
 * - `POST /projects/{id}/merge_requests/{iid}/notes` `{ body }` → 201, written by the token's user
 * - `PUT  /projects/{id}/merge_requests/{iid}/notes/{note_id}` `{ body }` → 200; 403 when the token's user
 *   is not the note's author (as GitLab), 404 for an unknown note
 * - `DELETE /projects/{id}/merge_requests/{iid}/notes/{note_id}` → 204; 403 and 404 as `PUT`
 * Every route but `/user` needs a known token (401 otherwise). Everything else answers 404
 * `{"message":"404 Not Found"}`. Every request is recorded in `requests`, with the token header it
 * carried, so a test can check where the token went. Notes are kept per merge request IID (the project
 * in the path is recorded, not checked).
 */
import type { FakeControls, Received, RecordedRequestBase } from "./fake-server.ts";
import { pageAsked, recordOf, startFakeServer } from "./fake-server.ts";
import { bodyField, listOf, type Reply, reply } from "./http-reply.ts";

export type { FaultKind, FaultMatch } from "./http-reply.ts";

export interface FakeGitLabUser {
  id: number;
  username: string;
}

export interface FakeGitLabNote {
  id: number;
  body: string;
  author: { id: number; username: string; name: string };
  system: boolean;
  noteable_type: "MergeRequest";
  noteable_iid: number;
  created_at: string;
  updated_at: string;
}

/** A request received; `path` is below `pathPrefix`, for example "/projects/7/merge_requests/3/notes". */
export interface RecordedGitLabRequest extends RecordedRequestBase {
  /** The `PRIVATE-TOKEN` header as sent, or undefined. */
  privateToken: string | undefined;
}

export interface FakeGitLabOptions {
  /** Prepended to every route. Default "/api/v4". */
  pathPrefix?: string;
  /** Known tokens and whom they act as. Default: {@link FAKE_GITLAB_TOKEN} → {@link FAKE_GITLAB_BOT}. */
  tokens?: Record<string, FakeGitLabUser>;
  /** Which pagination headers to send: "both" (default, as GitLab), only `x-next-page`, or only `Link`. */
  pagination?: "both" | "x-next-page" | "link";
  /** Accept every connection and never answer: a GitLab that hangs. */
  hang?: boolean;
}

export interface FakeGitLab extends FakeControls {
  /** The API URL to use as `CI_API_V4_URL`, for example "http://127.0.0.1:41234/api/v4". */
  apiUrl: string;
  /** Every request received, in order. */
  requests: RecordedGitLabRequest[];
  /** The notes of a merge request, oldest first (copies). */
  notes(iid: number): FakeGitLabNote[];
  /** Adds notes written by `author` (default a user "someone", id 7), as if posted before the test. */
  seedNotes(
    iid: number,
    bodies: string[],
    author?: FakeGitLabUser,
    options?: { system?: boolean },
  ): FakeGitLabNote[];
}

export const FAKE_GITLAB_TOKEN = "glpat-fakeProjectToken-0123456789";
export const FAKE_GITLAB_BOT: FakeGitLabUser = { id: 4242, username: "project_77_bot_abc" };
export const FAKE_GITLAB_STRANGER: FakeGitLabUser = { id: 7, username: "someone" };

const FIXED_TIME = "2026-01-01T00:00:00.000Z";

export async function startFakeGitLab(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const prefix = (options.pathPrefix ?? "/api/v4").replace(/\/+$/, "");
  const tokens = options.tokens ?? { [FAKE_GITLAB_TOKEN]: FAKE_GITLAB_BOT };
  const pagination = options.pagination ?? "both";
  const byIid = new Map<number, FakeGitLabNote[]>();
  let nextId = 5000;

  const mrNotes = (iid: number): FakeGitLabNote[] => listOf(byIid, iid);
  const addNote = (iid: number, body: string, author: FakeGitLabUser, system = false): FakeGitLabNote => {
    const note: FakeGitLabNote = {
      id: nextId++,
      body,
      author: { id: author.id, username: author.username, name: author.username },
      system,
      noteable_type: "MergeRequest",
      noteable_iid: iid,
      created_at: FIXED_TIME,
      updated_at: FIXED_TIME,
    };
    mrNotes(iid).push(note);
    return note;
  };
  const handle = (record: RecordedGitLabRequest, { url }: Received): Reply => {
    const { method, body: rawBody } = record;
    if (!url.pathname.startsWith(`${prefix}/`)) return reply(404, { message: "404 Not Found" });
    const user = record.privateToken === undefined ? undefined : tokens[record.privateToken];
    if (!user) return reply(401, { message: "401 Unauthorized" });
    const path = record.path;

    if (path === "/user" && method === "GET") {
      return reply(200, {
        id: user.id,
        username: user.username,
        name: user.username,
        bot: true,
        state: "active",
      });
    }

    const list = /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/.exec(path);
    if (list) {
      const iid = Number(list[2]);
      if (method === "GET") return listNotes(url, mrNotes(iid), pagination);
      if (method === "POST") {
        const body = bodyField(rawBody);
        if (body === undefined) return reply(400, { message: "400 Bad request - body is missing" });
        return reply(201, addNote(iid, body, user));
      }
    }

    const single = /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes\/(\d+)$/.exec(path);
    if (single) {
      const note = mrNotes(Number(single[2])).find((n) => n.id === Number(single[3]));
      if (!note) return reply(404, { message: "404 Not found" });
      if (method === "GET") return reply(200, note);
      if (method === "PUT") {
        if (note.author.id !== user.id) return reply(403, { message: "403 Forbidden" });
        const body = bodyField(rawBody);
        if (body === undefined) return reply(400, { message: "400 Bad request - body is missing" });
        note.body = body;
        return reply(200, note);
      }
      if (method === "DELETE") {
        if (note.author.id !== user.id) return reply(403, { message: "403 Forbidden" });
        const list = mrNotes(Number(single[2]));
        list.splice(list.indexOf(note), 1);
        return reply(204, undefined);
      }
    }
    return reply(404, { message: "404 Not Found" });
  };

  const server = await startFakeServer<RecordedGitLabRequest>({
    record: (received) => {
      const token = received.req.headers["private-token"];
      return { ...recordOf(received, prefix), privateToken: Array.isArray(token) ? token[0] : token };
    },
    handle,
    ...(options.hang ? { hang: true } : {}),
  });

  return {
    apiUrl: `${server.origin}${prefix}`,
    requests: server.requests,
    notes: (iid) => mrNotes(iid).map((n) => ({ ...n, author: { ...n.author } })),
    seedNotes: (iid, bodies, author = FAKE_GITLAB_STRANGER, seedOptions = {}) =>
      bodies.map((body) => addNote(iid, body, author, seedOptions.system ?? false)),
    fail: server.fail,
    hold: server.hold,
    close: server.close,
  };
}

function listNotes(url: URL, all: FakeGitLabNote[], pagination: "both" | "x-next-page" | "link"): Reply {
  const { perPage, page, pageUrl } = pageAsked(url, 20);
  const ordered = url.searchParams.get("sort") === "asc" ? all : [...all].reverse();
  const totalPages = Math.max(Math.ceil(ordered.length / perPage), 1);
  const headers: Record<string, string> = {};
  if (pagination !== "link") {
    Object.assign(headers, {
      "x-page": String(page),
      "x-per-page": String(perPage),
      "x-next-page": page < totalPages ? String(page + 1) : "",
      "x-prev-page": page > 1 ? String(page - 1) : "",
      "x-total": String(ordered.length),
      "x-total-pages": String(totalPages),
    });
  }
  if (pagination !== "x-next-page") {
    const links: string[] = [];
    if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
    if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
    links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(totalPages)}>; rel="last"`);
    headers.link = links.join(", ");
  }
  return reply(200, ordered.slice((page - 1) * perPage, page * perPage), headers);
}
