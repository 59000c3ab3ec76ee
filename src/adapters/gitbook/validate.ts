/** Checks of the client's options and arguments, done before anything is sent. */

import { InvalidArgumentError, InvalidSlugError } from "../../core/service/errors.ts";
import { pathParameterProblem } from "../../core/service/path-parameter.ts";
import type { PageOptions, SpecSource } from "../../core/service/types.ts";
import { explainInvalidSlug } from "../../core/slugs/rule.ts";

export const MAX_PAGE_LIMIT = 1000;

export function assertSlug(slug: string): void {
  const reason = typeof slug === "string" ? explainInvalidSlug(slug) : "it is not a string";
  if (reason !== undefined) throw new InvalidSlugError(String(slug), reason);
}

/** Organization ids, version ids and email domains: any non-blank string (it is URL-encoded). */
/**
 * The one check of every path parameter (organization id, version id, …) before a request is built: not
 * empty, and nothing a URL parser or a server could read as another path — `.` or `..` (as written or
 * percent-decoded, any number of times: `%2e%2e`), a `/` or `\\`, or a control character.
 */
export function assertIdentifier(argument: string, value: string): void {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidArgumentError(argument, `The ${argument} is empty; pass a non-empty ${argument}.`);
  }
  const problem = pathParameterProblem(value);
  if (problem) {
    throw new InvalidArgumentError(
      argument,
      `The ${argument} ${JSON.stringify(value)} cannot be used in a request path: ${problem}. Nothing was sent.`,
    );
  }
}

export function assertLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new InvalidArgumentError(
      "limit",
      `The page limit ${String(limit)} is invalid; pass an integer from 1 to ${MAX_PAGE_LIMIT}.`,
    );
  }
}

export function assertPageOptions(page: PageOptions | undefined): void {
  if (page === undefined) return;
  assertLimit(page.limit);
  if (page.page !== undefined && (typeof page.page !== "string" || page.page === "")) {
    throw new InvalidArgumentError("page", "The page id is empty; pass the `next.page` of a previous page.");
  }
}

export function assertSpecSource(source: SpecSource): void {
  const value = source as unknown;
  if (typeof value !== "object" || value === null) {
    throw new InvalidArgumentError("source", "The specification source must be { url } or { text }.");
  }
  const hasUrl = "url" in value;
  const hasText = "text" in value;
  if (hasUrl === hasText) {
    throw new InvalidArgumentError(
      "source",
      "The specification source must have exactly one of url or text.",
    );
  }
  if (hasText) {
    const text = (value as { text: unknown }).text;
    if (typeof text !== "string" || text.length === 0) {
      throw new InvalidArgumentError("source", "The specification text is empty; pass the document's text.");
    }
    return;
  }
  const url = (value as { url: unknown }).url;
  if (typeof url !== "string" || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new InvalidArgumentError(
      "source",
      `The specification URL ${JSON.stringify(String(url))} is not an absolute http(s) URL.`,
    );
  }
}

/**
 * Checks the base URL and returns it without a trailing slash (and without a trailing `/v1`, which the
 * client adds itself). The token is only ever sent to this origin, so URLs that carry credentials or a
 * query are refused.
 */
export function normalizeBaseUrl(baseUrl: string): URL {
  if (typeof baseUrl !== "string" || !URL.canParse(baseUrl)) {
    throw new InvalidArgumentError(
      "baseUrl",
      `The base URL ${JSON.stringify(String(baseUrl))} is not a URL.`,
    );
  }
  const url = new URL(baseUrl);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidArgumentError("baseUrl", `The base URL must use http or https, not ${url.protocol}.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new InvalidArgumentError(
      "baseUrl",
      "The base URL must not contain credentials; pass the token separately.",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new InvalidArgumentError(
      "baseUrl",
      `The base URL ${url.origin}${url.pathname} must not have a query or fragment.`,
    );
  }
  url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return url;
}

/** A token is a single header value: non-empty printable ASCII without spaces. */
export function assertToken(token: string): void {
  if (typeof token !== "string" || token.trim() === "") {
    throw new InvalidArgumentError(
      "token",
      "The GitBook API token is empty: pass it as the `token` input / GITBOOK_TOKEN.",
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(token)) {
    throw new InvalidArgumentError(
      "token",
      "The GitBook API token contains a line break or control character; copy it again without them.",
    );
  }
  if (/[^\x21-\x7e]/.test(token)) {
    throw new InvalidArgumentError(
      "token",
      "The GitBook API token contains spaces or non-ASCII characters; copy it again exactly as GitBook shows it.",
    );
  }
}
