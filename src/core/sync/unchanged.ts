/**
 * Whether GitBook already holds the text a run would upload, so that the upload can be skipped and the
 * spec reported `unchanged`. Pure: the caller reads the spec and its last version's content and passes
 * them in. Only a proof of sameness says "same": the version's document carries this run's very publish
 * record (same owner, same file, same digest of the text; see ownership.ts). Every doubt (a shape we do
 * not know, a failed or unfinished processing, a URL source, no record or another one) says "not same",
 * with a one-line reason for the log, and the run uploads.
 *
 * What the version content holds: docs/version-content.md.
 */
import { readVersionFiles } from "../service/parse.ts";
import type { Spec } from "../service/types.ts";
import { type PublishRecord, provenFileVersion, RECORD_KEY, recordOf, sameRecord } from "./ownership.ts";
import { processingFailure } from "./processing.ts";

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
  record: PublishRecord | string;
}

/** {@link sameAsPublished} on the record already taken out of the version's content. */
export function sameAsHeld(local: PublishRecord, published: HeldRecord): Sameness {
  const unreadable = unreadableReason(published.spec);
  if (unreadable) return differ(unreadable);
  const held = published.record;
  if (typeof held === "string") return differ(held);
  if (held.owner !== local.owner)
    return differ("another repository or configuration published the version GitBook holds");
  if (!sameRecord(held, local)) {
    return differ(
      held.path === local.path
        ? "the text differs from the one GitBook holds"
        : `GitBook's version was published from ${held.path}`,
    );
  }
  return { same: true };
}

/**
 * Sameness told from a file's bytes alone (their digest, ownership.ts `digestOfFileBytes`), before any
 * local step: the version's record proves this very text, uploaded as the file is written, and what the
 * checks read from it under this run's rules (see {@link provenFileVersion}). Its `specVersion` stands
 * for reading the file. Not same means "read and check the file", not "upload": the full comparison
 * decides then.
 */
export function sameFileAsHeld(
  file: { owner: string; path: string; digest: string },
  published: HeldRecord,
): { same: true; specVersion: string } | { same: false } {
  if (unreadableReason(published.spec)) return { same: false };
  const held = published.record;
  const specVersion = typeof held === "string" ? undefined : provenFileVersion(held, file);
  return specVersion === undefined ? { same: false } : { same: true, specVersion };
}

/** The record in a version's content, or why there is none to read. */
export function publishedRecord(content: unknown): PublishRecord | string {
  if (typeof content !== "object" || content === null || !Object.hasOwn(content, "filesystem")) {
    return "GitBook's version content has no filesystem";
  }
  const files = readVersionFiles((content as { filesystem: unknown }).filesystem);
  if (files.kind === "unknown") return `GitBook's version content has an unknown shape: ${files.problem}`;
  const entrypoints = files.entries.filter((entry) => entry.isEntrypoint);
  const [entry] = entrypoints;
  if (entry === undefined || entrypoints.length > 1)
    return "GitBook's version content has no single entrypoint";
  return (
    recordOf(entry.specification) ??
    `GitBook's version carries no \`${RECORD_KEY}\` (published before this tool recorded it, or by another tool)`
  );
}

function differ(reason: string): Sameness {
  return { same: false, reason };
}

function quote(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
