/**
 * The publish record: evidence, stored in the document GitBook keeps, of who uploaded a spec and what
 * they uploaded. Every text upload carries it as the top-level key {@link RECORD_KEY}; a later run reads
 * it back from the version's content. It is the only proof the run accepts that
 *
 * - a spec is this repository's, published under this configuration (`owner`), so that pruning may
 *   delete it; a slug prefix is a filter, never the proof;
 * - its file was `path`, so that a spec whose file still exists is never pruned;
 * - GitBook already holds exactly what this run would upload (`digest` of the text, before the record
 *   was added), so that the upload can be skipped: the text's bytes decide, whatever GitBook's processing
 *   does to the document (Swagger 2.0 upgraded to OpenAPI 3, descriptions enriched), and numbers are
 *   compared as written.
 *
 * Why this design and what it costs: README "Sync" and docs/ownership.md.
 */
import { createHash } from "node:crypto";
import { insertRootKey } from "../documents/root-key.ts";

export const RECORD_KEY = "x-publish-record";
const TOOL = "gitbook-openapi";

export interface PublishRecord {
  tool: typeof TOOL;
  /** {@link ownerKey} of the repository and configuration that uploaded it. */
  owner: string;
  /** The spec's file, workspace-relative, `/`-separated. */
  path: string;
  /** {@link digestOf} the uploaded text without the record. */
  digest: string;
}

/** Who publishes: the repository's identity (host and path, e.g. `github.com/acme/widgets`) and slug prefix. */
export interface Publisher {
  /** Undefined when the host could not tell which repository this is: nothing is then pruned. */
  repository: string | undefined;
  slugPrefix: string | undefined;
}

/**
 * A digest of the repository's identity and slug prefix: specs stay told apart by repository and by
 * configuration, without writing the repository's name into a document that may be public.
 */
export function ownerKey(publisher: Publisher): string {
  const identity = `${publisher.repository ?? ""}\n${publisher.slugPrefix ?? ""}`;
  return createHash("sha256").update(identity).digest("hex").slice(0, 32);
}

export function digestOf(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

export type RecordedText =
  | { record: PublishRecord; text: string }
  /** The record could not be added: the text goes as written, and the spec can be neither skipped nor pruned. */
  | { record: undefined; text: string; problem: string };

/** The text to upload: `text` with its record first in the top-level mapping. */
export function withRecord(text: string, format: "json" | "yaml", owner: string, path: string): RecordedText {
  if (text.includes(RECORD_KEY)) {
    return {
      record: undefined,
      text,
      problem: `it already holds a \`${RECORD_KEY}\` key, which this tool writes`,
    };
  }
  const record: PublishRecord = { tool: TOOL, owner, path, digest: digestOf(text) };
  const inserted = insertRootKey(text, format, RECORD_KEY, asciiJson(record));
  return inserted.ok
    ? { record, text: inserted.text }
    : { record: undefined, text, problem: inserted.reason };
}

/** The record a published document carries, when it carries one of the right shape. */
export function recordOf(document: unknown): PublishRecord | undefined {
  if (typeof document !== "object" || document === null || !Object.hasOwn(document, RECORD_KEY))
    return undefined;
  const value: unknown = (document as Record<string, unknown>)[RECORD_KEY];
  if (typeof value !== "object" || value === null) return undefined;
  const { tool, owner, path, digest } = value as Record<string, unknown>;
  if (tool !== TOOL || typeof owner !== "string" || typeof path !== "string" || typeof digest !== "string") {
    return undefined;
  }
  return { tool, owner, path, digest };
}

export function sameRecord(a: PublishRecord, b: PublishRecord): boolean {
  return a.owner === b.owner && a.path === b.path && a.digest === b.digest;
}

/** One line of JSON in ASCII: valid as written in JSON and as a YAML flow mapping. */
function asciiJson(record: PublishRecord): string {
  const entries = Object.entries(record).map(
    ([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{ ${entries.join(", ")} }`.replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A repository's identity from its URL (https, ssh or scp-like `git@host:path`): `host/path`, lowercased,
 * without credentials, port or `.git`. Undefined when the URL names no host and path.
 */
export function repositoryIdentity(url: string | undefined): string | undefined {
  const trimmed = url?.trim();
  if (!trimmed) return undefined;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(trimmed);
  let host: string;
  let pathname: string;
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    host = scp[1] as string;
    pathname = scp[2] as string;
  } else {
    try {
      const parsed = new URL(trimmed);
      host = parsed.hostname;
      pathname = decodeURIComponent(parsed.pathname);
    } catch {
      return undefined;
    }
  }
  const path = pathname.replace(/^\/+|\/+$/g, "").replace(/\.git$/i, "");
  return host && path ? `${host}/${path}`.toLowerCase() : undefined;
}
