/**
 * How many bytes the client reads of each kind of answer. A body is streamed and the read stops one
 * chunk past its cap (or at once when `Content-Length` announces more): nothing past a cap is ever held in
 * memory, and a too-large answer is a {@link ResponseTooLargeError}, never retried. The caps are set far
 * above what GitBook sends for what we publish, so that only a broken or hostile server meets them; the
 * reasons for each figure are beside it.
 */
import { KiB, MiB } from "../../core/text/bytes.ts";

export { formatBytes, KiB, MiB } from "../../core/text/bytes.ts";

export interface ResponseCap {
  /** The most bytes of the body that are read. */
  bytes: number;
  /** What the answer is, for messages: "a version's content". */
  what: string;
}

export const RESPONSE_CAPS = {
  /**
   * One specification: about 1 KiB, plus its processing errors (GitBook lists a bounded number and
   * counts the rest in `lastProcessedErrorCount`). 2 MiB is room for thousands of long messages.
   */
  spec: { bytes: 2 * MiB, what: "a specification" },
  /**
   * A page of up to 1000 specifications (the service's largest `limit`): 16 KiB for each, ten times a
   * specification with a long error list.
   */
  specPage: { bytes: 16 * MiB, what: "a page of specifications" },
  /** One version's metadata: an id, a date and three URLs, well under 1 KiB. */
  version: { bytes: 1 * MiB, what: "a version" },
  /** A page of up to 1000 versions, 16 KiB for each, as for specifications. */
  versionPage: { bytes: 16 * MiB, what: "a page of versions" },
  /**
   * A version's content: the parsed document of every file, as JSON. The files we upload are at most
   * 32 MiB (the spec and bundle cap); their content at GitBook can be larger than the file (JSON of a
   * YAML file repeats its quotes and braces; a Swagger 2.0 document comes back upgraded to OpenAPI 3;
   * non-ASCII text may be escaped). Twice the upload cap holds every content of a file we would send,
   * and a content larger than that cannot be an unchanged copy of one: the unchanged check then
   * uploads, which costs one upload and never loses anything.
   */
  versionContent: { bytes: 64 * MiB, what: "a version's content" },
  /** The organizations of an email domain: a few KiB each; 4 MiB is room for about a thousand. */
  organizations: { bytes: 4 * MiB, what: "the organizations of an email domain" },
  /**
   * An error answer: `{"error": {"code", "message"}}`, or a proxy's HTML page, a few KiB. Past the cap
   * the status alone is the verdict (retried or not as the status says); the body is not read.
   */
  errorBody: { bytes: 64 * KiB, what: "an error answer" },
  /** A success answer whose body the call does not use (DELETE): read up to this, then dropped. */
  unused: { bytes: 64 * KiB, what: "an answer without a body" },
} as const satisfies Record<string, ResponseCap>;
