import type { SpecSource } from "../../src/core/service/types.ts";
import { explainInvalidSlug } from "../../src/core/slugs/rule.ts";

/** A request the emulator refuses, answered with `{"error": {"code": status, "message"}}`. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

const MAX_URL_LENGTH = 2048;

/** Accepts `application/json` with optional parameters such as `charset=utf-8`. */
export function checkJsonContentType(method: string, contentType: string | undefined): void {
  const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new ApiError(
      400,
      `${method} requires Content-Type: application/json, got ${contentType === undefined ? "none" : JSON.stringify(contentType)}`,
    );
  }
}

export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError(400, `The request body is not valid JSON: ${reason}`);
  }
}

export function checkSlug(slug: unknown): string {
  if (typeof slug !== "string") {
    throw new ApiError(400, `slug must be a string, got ${describe(slug)}`);
  }
  const problem = explainInvalidSlug(slug);
  if (problem !== undefined) {
    throw new ApiError(
      400,
      `Invalid slug ${JSON.stringify(slug)}: ${problem}. A slug is 1 to 100 characters of a-z and 0-9 in words separated by single '-'`,
    );
  }
  return slug;
}

/** The body of POST /v1/orgs/{organizationId}/openapi. */
export function parseCreateBody(body: unknown): { slug: string; source: SpecSource } {
  const fields = expectObject(body, "The request body");
  if (!("slug" in fields)) throw new ApiError(400, 'The request body has no "slug"');
  return { slug: checkSlug(fields.slug), source: parseSource(fields) };
}

/** The body of PUT /v1/orgs/{organizationId}/openapi/{specSlug}. */
export function parsePutBody(body: unknown): { source: SpecSource } {
  return { source: parseSource(expectObject(body, "The request body")) };
}

function parseSource(fields: Record<string, unknown>): SpecSource {
  if (!("source" in fields)) {
    throw new ApiError(
      400,
      'The request body has no "source"; send {"source": {"url": ...}} or {"source": {"text": ...}}',
    );
  }
  const source = expectObject(fields.source, "source");
  const keys = Object.keys(source);
  if (keys.length !== 1 || (keys[0] !== "url" && keys[0] !== "text")) {
    throw new ApiError(
      400,
      `source must have exactly one field, "url" or "text"; got ${keys.length === 0 ? "none" : keys.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  }
  if ("text" in source) {
    if (typeof source.text !== "string" || source.text.length === 0) {
      throw new ApiError(400, `source.text must be a non-empty string, got ${describe(source.text)}`);
    }
    return { text: source.text };
  }
  return { url: checkSourceUrl(source.url) };
}

function checkSourceUrl(value: unknown): string {
  if (typeof value !== "string")
    throw new ApiError(400, `source.url must be a string, got ${describe(value)}`);
  if (value.length > MAX_URL_LENGTH) {
    throw new ApiError(400, `source.url is ${value.length} characters long; the limit is ${MAX_URL_LENGTH}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError(400, `source.url ${JSON.stringify(value)} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError(400, `source.url must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  return value;
}

function expectObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError(400, `${what} must be a JSON object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length === 0 ? "an empty string" : "a string";
  return typeof value === "undefined" ? "nothing" : `a ${typeof value}`;
}
