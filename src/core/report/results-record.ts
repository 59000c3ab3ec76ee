/**
 * The results record: what one spec's outcome looks like to scripts, the same in the Action's `results`
 * output and the CLI's `--json`. Its documented form is `schema/results.schema.json`; a test holds the
 * two together, and holds the status, operation and `changes.against` values to the types of
 * `src/core/result.ts`.
 */
import type { SpecChange, SpecChanges, SpecOperation, SpecResult, SpecStatus } from "../result.ts";

/** One spec's outcome as scripts read it: every field always present, `null` when it has no value. */
export interface ResultRecord {
  /** Relative to the workspace, `/`-separated; empty for a spec known by its slug only (pruned, recorded preview). */
  file: string;
  slug: string;
  status: SpecStatus;
  operation: SpecOperation | null;
  /** The document's `info.version`, as written. */
  specVersion: string | null;
  specId: string | null;
  versionId: string | null;
  versionUrl: string | null;
  appUrl: string | null;
  errorCode: string | null;
  errors: string[];
  /** Only in a review (pull or merge request preview). */
  changes?: SpecChanges;
}

/**
 * The fields of {@link SpecResult} that stay out of the record, and why: the time a spec took differs on
 * every run, and a record describes the outcome, which is the same for the same workspace and the same
 * service (the JUnit report and the log carry the times); the validation's warnings are the log's
 * annotations, counted in the summary, the comment and JUnit.
 */
export const FIELDS_LEFT_OUT: readonly (keyof SpecResult)[] = ["durationMs", "warnings"];

/** One result as its record. */
export function toResultRecord(result: SpecResult): ResultRecord {
  return {
    file: result.file,
    slug: result.slug,
    status: result.status,
    operation: result.operation ?? null,
    specVersion: result.specVersion ?? null,
    specId: result.specId ?? null,
    versionId: result.versionId ?? null,
    versionUrl: result.versionUrl ?? null,
    appUrl: result.appUrl ?? null,
    errorCode: result.errorCode ?? null,
    errors: [...result.errors],
    ...(result.changes
      ? {
          changes: {
            against: result.changes.against,
            breaking: result.changes.breaking.map(copyChange),
            other: result.changes.other.map(copyChange),
            allowed: result.changes.allowed.map(copyChange),
            ...(result.changes.notReviewed === undefined ? {} : { notReviewed: result.changes.notReviewed }),
          },
        }
      : {}),
  };
}

/** A change as its record: the same fields, in the same order, shared with nothing. */
function copyChange(change: SpecChange): SpecChange {
  return {
    kind: change.kind,
    ...(change.operation === undefined ? {} : { operation: change.operation }),
    ...(change.operationId === undefined ? {} : { operationId: change.operationId }),
    message: change.message,
    ...(change.pointer === undefined ? {} : { pointer: change.pointer }),
    ...(change.file === undefined ? {} : { file: change.file }),
    ...(change.line === undefined ? {} : { line: change.line }),
    ...(change.baseFile === undefined ? {} : { baseFile: change.baseFile }),
    ...(change.baseLine === undefined ? {} : { baseLine: change.baseLine }),
  };
}

/** A run's results as records, in path order (then by slug: pruned and recorded specs have no path). */
export function toResultRecords(results: readonly SpecResult[]): ResultRecord[] {
  return [...results].sort(byPathThenSlug).map(toResultRecord);
}

function byPathThenSlug(a: SpecResult, b: SpecResult): number {
  return compare(a.file, b.file) || compare(a.slug, b.slug);
}

/** By UTF-16 code units, as the `results` output always was: the same order on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
