/**
 * The publish record ({@link RECORD_KEY}), spliced into every text upload: the only proof a run accepts
 * that a spec is this repository's (`owner`, `slug`, `path`, `commit`, so that pruning may delete it) and
 * that GitBook already holds exactly what the run would upload (`digest`, `document`, and the checks'
 * readings under {@link CHECKS}). Why, and what it costs: docs/design/ownership.md.
 */
import { isUtf8 } from "node:buffer";
import { upgrade } from "@scalar/openapi-upgrader";
import { insertRootKey, removeRootKey } from "../documents/root-key.ts";
import { sha256Hex } from "../text/sha256.ts";
import { unicodeEscape } from "../text/unprintable.ts";

export const RECORD_KEY = "x-publish-record";
const TOOL = "gitbook-openapi";

/**
 * The version of the rules that judge a file's bytes before an upload: how it is read (syntax, what
 * is a spec), validated, how `info.version` is read, and which references lead to other files. Bump it
 * with any change that could judge the same bytes otherwise: a record written under other rules then
 * never stands in for running them (its spec is read and checked again, and still not uploaded when its
 * text is the same).
 */
export const CHECKS = 1;

/** `specVersion` longer than this is not recorded (its spec is then read on every run). */
const MAX_RECORDED_VERSION = 200;

export interface PublishRecord {
  tool: typeof TOOL;
  /** {@link ownerKey} of the repository and configuration that uploaded it. */
  owner: string;
  /** The spec's file, workspace-relative, `/`-separated. */
  path: string;
  /** {@link digestOf} the uploaded text without the record. */
  digest: string;
  /**
   * The slug it was uploaded under: a record proves nothing for any other slug (a copy of the document
   * published elsewhere carries it too). Absent from records written before it was recorded.
   */
  slug?: string;
  /** The commit the run that uploaded it was at, when it knew: pruning deletes only on an older one's word. */
  commit?: string;
  /**
   * {@link documentDigest} of the document as GitBook stores it: a later run checks it against the
   * document the record sits in, so the record cannot vouch for other content. Absent when the run could
   * not tell (a document the upgrader refuses) and from records written before it was recorded.
   */
  document?: string;
  /** The document's `info.version` as the run read it (a result's `specVersion`). */
  specVersion?: string;
  /**
   * The file references no other file (literal data aside): the text uploaded is the file as written,
   * whatever other files hold. Absent for a bundle, and for a file whose references were all left as
   * written because their files could not be read (a later run could read them).
   */
  standalone?: true;
  /** {@link CHECKS} of the run that uploaded it. */
  checks?: number;
}

/** Where a record is written: the slug the text goes to, the run's commit, and the document it carries. */
export interface RecordPlace {
  slug: string;
  commit?: string | undefined;
  /**
   * The document the text (without any record) parses to, read only when the record is made; or its
   * {@link documentDigest}, taken beforehand, so that the document need not be held until then.
   */
  document: (() => unknown) | { digest: string | undefined };
}

/** What the run's checks read from a text's bytes, recorded with it (see {@link CHECKS}). */
export interface TextFacts {
  specVersion: string | undefined;
  standalone: boolean;
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
  return sha256Hex(identity).slice(0, 32);
}

export function digestOf(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/**
 * {@link digestOf} the text a file's bytes decode to, from the bytes themselves, without decoding
 * them: the same value when they are UTF-8 (decoding then encoding gives the bytes back, a byte order
 * mark and line endings included). Undefined when they are not UTF-8 (decoding replaces what is not,
 * so only the decoded text has the digest) or hold {@link RECORD_KEY} (a record there is taken out first).
 */
export function digestOfFileBytes(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes) || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes(RECORD_KEY)) {
    return undefined;
  }
  return `sha256:${sha256Hex(bytes)}`;
}

export type RecordedText =
  | { record: PublishRecord; text: string; refused?: undefined }
  /** The record could not be added: the text goes as written, and the spec can be neither skipped nor pruned. */
  | { record: undefined; text: string; problem: string; refused?: undefined }
  /** The text holds a record from elsewhere that could not be taken out: it must not be uploaded. */
  | { record: undefined; text: string; problem: string; refused: true };

/**
 * The text to upload: `text` with its record first in the top-level mapping, in place of any record the
 * text already held at its top (copied from a served document: it proves nothing for this upload).
 * `facts` (what the checks read from a file's text) go into the record when given.
 */
export function withRecord(
  text: string,
  format: "json" | "yaml",
  owner: string,
  path: string,
  place: RecordPlace,
  facts?: TextFacts,
): RecordedText {
  let own = text;
  if (text.includes(RECORD_KEY)) {
    const removed = removeRootKey(text, format, RECORD_KEY);
    if (!removed.ok) {
      return {
        record: undefined,
        text,
        refused: true,
        problem: `it holds a \`${RECORD_KEY}\` key, which this tool writes, and it could not be taken out (${removed.reason}): delete that key from the file`,
      };
    }
    own = removed.text;
  }
  const document =
    typeof place.document === "function" ? documentDigest(place.document()) : place.document.digest;
  const record: PublishRecord = {
    tool: TOOL,
    owner,
    path,
    slug: place.slug,
    ...(place.commit !== undefined ? { commit: place.commit } : {}),
    digest: digestOf(own),
    ...(document !== undefined ? { document } : {}),
  };
  if (facts) {
    const { specVersion, standalone } = facts;
    if (specVersion !== undefined && specVersion.length <= MAX_RECORDED_VERSION)
      record.specVersion = specVersion;
    if (standalone) record.standalone = true;
    record.checks = CHECKS;
  }
  const inserted = insertRootKey(own, format, RECORD_KEY, asciiJson(record));
  return inserted.ok
    ? { record, text: inserted.text }
    : { record: undefined, text: own, problem: inserted.reason };
}

/**
 * A digest of a document as GitBook's parser stores it (docs/design/version-content.md, and the emulator's
 * `storedDocument`): without the record itself, `info.version` "0.0.1" when empty, Swagger 2.0 upgraded
 * to OpenAPI 3.1 by the upgrader GitBook's parser pins, without the root `x-ext-urls`, and without an
 * `x-gitbook-description-html` beside a non-empty `description` (what GitBook's enrichment adds); keys in
 * the document's order. The same for the document a run uploads and for the one GitBook gives back.
 * Undefined for a value that is not a mapping, one the upgrader refuses, or one nested too deep.
 */
export function documentDigest(document: unknown): string | undefined {
  if (!isMapping(document)) return undefined;
  try {
    const text = JSON.stringify(storedForm(document), withoutEnrichment);
    return `sha256:${sha256Hex(text)}`;
  } catch {
    return undefined;
  }
}

function storedForm(document: Record<string, unknown>): Record<string, unknown> {
  let root: Record<string, unknown> = { ...document };
  delete root[RECORD_KEY];
  if (isMapping(root.info) && !root.info.version) root.info = { ...root.info, version: "0.0.1" };
  if (root.swagger === "2.0") root = upgrade(structuredClone(root), "3.1") as Record<string, unknown>;
  delete root["x-ext-urls"];
  return root;
}

const ENRICHED = "x-gitbook-description-html";

function withoutEnrichment(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, ENRICHED)) return value;
  const { description } = value as { description?: unknown };
  if (typeof description !== "string" || description === "") return value;
  const { [ENRICHED]: _added, ...rest } = value as Record<string, unknown>;
  return rest;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The record a published document carries, when it carries one of the right shape. */
export function recordOf(carrier: unknown): PublishRecord | undefined {
  if (typeof carrier !== "object" || carrier === null || !Object.hasOwn(carrier, RECORD_KEY))
    return undefined;
  const value: unknown = (carrier as Record<string, unknown>)[RECORD_KEY];
  if (typeof value !== "object" || value === null) return undefined;
  const { tool, owner, path, slug, commit, digest, document, specVersion, standalone, checks } =
    value as Record<string, unknown>;
  if (tool !== TOOL || typeof owner !== "string" || typeof path !== "string" || typeof digest !== "string") {
    return undefined;
  }
  return {
    tool,
    owner,
    path,
    digest,
    ...(typeof slug === "string" ? { slug } : {}),
    ...(typeof commit === "string" ? { commit } : {}),
    ...(typeof document === "string" ? { document } : {}),
    ...(typeof specVersion === "string" ? { specVersion } : {}),
    ...(standalone === true ? { standalone } : {}),
    ...(typeof checks === "number" ? { checks } : {}),
  };
}

/** The same owner, slug, file and text: what makes an upload needless. */
export function sameRecord(a: PublishRecord, b: PublishRecord): boolean {
  return a.owner === b.owner && a.slug === b.slug && a.path === b.path && a.digest === b.digest;
}

/**
 * The `info.version` a record proves for a file whose bytes have `digest`, when it proves everything a
 * run would establish by reading and checking them: this owner, slug and file, the same text, uploaded as the
 * file is written (no other file in it), under this run's {@link CHECKS}. Undefined otherwise: the file
 * is then read and checked.
 */
export function provenFileVersion(
  held: PublishRecord,
  file: { owner: string; slug: string; path: string; digest: string },
): string | undefined {
  if (held.owner !== file.owner || held.slug !== file.slug) return undefined;
  if (held.path !== file.path || held.digest !== file.digest) return undefined;
  if (held.standalone !== true || held.checks !== CHECKS) return undefined;
  return held.specVersion;
}

/** One line of JSON in ASCII: valid as written in JSON and as a YAML flow mapping. */
function asciiJson(record: PublishRecord): string {
  const entries = Object.entries(record).map(
    ([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{ ${entries.join(", ")} }`.replace(/[\u007f-\uffff]/g, unicodeEscape);
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
