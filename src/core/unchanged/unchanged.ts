/**
 * Whether GitBook already holds the text a run would upload, so that the upload can be skipped and the
 * spec reported `unchanged`. Pure: the caller reads the spec and its last version's content and passes
 * them in. Only a proof of sameness says "same": the version's document carries this run's very publish
 * record (same owner, slug, file and digest of the text; see ../ownership/ownership.ts), and that record's document
 * digest is the digest of the document it sits in. Every doubt (a shape we do
 * not know, a failed or unfinished processing, a URL source, no record or another one) says "not same",
 * with a one-line reason for the log, and the run uploads.
 *
 * What the version content holds: docs/design/version-content.md.
 */

import {
  documentDigest,
  type PublishRecord,
  provenFileVersion,
  RECORD_KEY,
  recordOf,
  sameRecord,
} from "../ownership/ownership.ts";
import { processingFailure } from "../publish/processing.ts";
import { readVersionFiles } from "../service/parse.ts";
import type { Spec } from "../service/types.ts";

export type Sameness = { same: true } | { same: false; reason: string };

export interface PublishedSpec {
  /** The spec as GitBook lists it or answers `GET …/openapi/{slug}`. */
  spec: Spec;
  /** The body of `GET …/versions/{spec.lastVersion}/content`, unchecked. */
  content: unknown;
}

/** What a spec's processing must show before its version is worth reading: undefined when it is. */
export function unreadableReason(spec: Spec): string | undefined {
  if (spec.processingState !== "complete") {
    return `GitBook has not finished processing the last upload (state ${quote(spec.processingState)})`;
  }
  const failure = processingFailure(spec);
  if (failure) return `the last processing failed (${failure.code})`;
  if (spec.lastVersion === undefined) return "GitBook holds no processed version of this spec";
  if (spec.sourceURL !== undefined)
    return "GitBook reads this spec from a URL, whose content may have changed since";
  return undefined;
}

export function sameAsPublished(local: PublishRecord, published: PublishedSpec): Sameness {
  return sameAsHeld(local, { spec: published.spec, record: publishedRecord(published.content) });
}

/**
 * What the run keeps of a version it read: the spec and the record of its content (or why there is
 * none), not the content itself, which may be as large as the spec.
 */
export interface HeldRecord {
  spec: Spec;
  record: HeldPublishRecord | string;
}

/** A record read from a version, and whether the document it sits in is the one it describes. */
export interface HeldPublishRecord extends PublishRecord {
  /**
   * The record states a document digest and it is that of the version's document. False when it states
   * none (see ../ownership/ownership.ts `PublishRecord.document`): it then proves no sameness. A record whose digest is
   * another document's is not read at all.
   */
  contentProven: boolean;
}

/** {@link sameAsPublished} on the record already taken out of the version's content. */
export function sameAsHeld(local: PublishRecord, published: HeldRecord): Sameness {
  const unreadable = unreadableReason(published.spec);
  if (unreadable) return differ(unreadable);
  const held = published.record;
  if (typeof held === "string") return differ(held);
  if (held.owner !== local.owner)
    return differ("another repository or configuration published the version GitBook holds");
  if (held.slug === undefined) {
    return differ(
      "its publish record was written by an earlier version of this tool, which did not name the slug; uploaded once to renew it",
    );
  }
  if (held.slug !== local.slug) {
    return differ(
      `its publish record was written for the slug '${held.slug}', not this one: a copy proves nothing here`,
    );
  }
  if (!sameRecord(held, local)) {
    return differ(
      held.path === local.path
        ? "the text differs from the one GitBook holds"
        : `GitBook's version was published from ${held.path}`,
    );
  }
  if (!held.contentProven) {
    return differ(
      "its publish record states no digest of its document, so what GitBook holds cannot be checked against it",
    );
  }
  return { same: true };
}

/**
 * Sameness told from a file's bytes alone (their digest, ../ownership/ownership.ts `digestOfFileBytes`), before any
 * local step: the version's record proves this very text, uploaded as the file is written, and what the
 * checks read from it under this run's rules (see {@link provenFileVersion}). Its `specVersion` stands
 * for reading the file. Not same means "read and check the file", not "upload": the full comparison
 * decides then.
 */
export function sameFileAsHeld(
  file: { owner: string; slug: string; path: string; digest: string },
  published: HeldRecord,
): { same: true; specVersion: string } | { same: false } {
  if (unreadableReason(published.spec)) return { same: false };
  const held = published.record;
  const proven = typeof held !== "string" && held.contentProven;
  const specVersion = proven ? provenFileVersion(held, file) : undefined;
  return specVersion === undefined ? { same: false } : { same: true, specVersion };
}

/**
 * The record in a version's content, or why there is none to read. A record that states a document
 * digest other than that of the document it sits in proves nothing: it was copied onto other content.
 */
export function publishedRecord(content: unknown): HeldPublishRecord | string {
  if (typeof content !== "object" || content === null || !Object.hasOwn(content, "filesystem")) {
    return "GitBook's version content has no filesystem";
  }
  const files = readVersionFiles((content as { filesystem: unknown }).filesystem);
  if (files.kind === "unknown") return `GitBook's version content has an unknown shape: ${files.problem}`;
  const entrypoints = files.entries.filter((entry) => entry.isEntrypoint);
  const [entry] = entrypoints;
  if (entry === undefined || entrypoints.length > 1)
    return "GitBook's version content has no single entrypoint";
  const record = recordOf(entry.specification);
  if (!record) {
    return `GitBook's version carries no \`${RECORD_KEY}\` (published before this tool recorded it, or by another tool)`;
  }
  if (record.document === undefined) return { ...record, contentProven: false };
  if (documentDigest(entry.specification) !== record.document) {
    return `GitBook's document is not the one its \`${RECORD_KEY}\` describes (other content carries the record, or GitBook's processing changed the document), so it proves nothing`;
  }
  return { ...record, contentProven: true };
}

function differ(reason: string): Sameness {
  return { same: false, reason };
}

function quote(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
