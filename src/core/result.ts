/** What happened to one specification in a run; the `results` output is an array of these. */
export type SpecStatus =
  /** Processed by the service without error. */
  | "published"
  /** A local step (syntax, validation, bundling) or the service's processing failed. */
  | "failed"
  /** Still processing when the `timeout` ran out. */
  | "timed-out"
  /** GitBook already holds this very document, processed without error: nothing was uploaded. */
  | "unchanged"
  /** Uploaded; not waited for (`wait: false`). */
  | "submitted"
  /** `check` mode: everything local passed; nothing was written. */
  | "planned"
  /** Not attempted: the run stopped before any upload, or its host stopped it before this spec started (./run/stopped.ts). */
  | "skipped"
  /** Under way when the host stopped the run (a signal), and not ended within its grace (./run/stopped.ts). */
  | "cancelled"
  /** A preview removed because its pull request closed. */
  | "deleted";

export type SpecOperation = "create" | "update" | "delete" | "unknown";

export interface SpecResult {
  /** Relative to the workspace, `/`-separated. */
  file: string;
  slug: string;
  status: SpecStatus;
  /** Whether the PUT created or updated the specification (or would, in check mode). */
  operation?: SpecOperation;
  /** The document's `info.version`. */
  specVersion?: string;
  specId?: string;
  versionId?: string;
  versionUrl?: string;
  appUrl?: string;
  errorCode?: string;
  errors: string[];
  /** Findings of the validation GitBook takes, given as warnings (without `strict`). */
  warnings?: ValidationWarnings;
  /** In a review: how the document differs from the base's (or the published) one. */
  changes?: SpecChanges;
  /** Milliseconds from the start of this spec's work to its end. */
  durationMs?: number;
}

/** A spec's API changes in a review, each a {@link SpecChange}. */
export interface SpecChanges {
  /** What the document was compared with: "base commit", "published version", or "nothing" (new spec). */
  against: "base commit" | "published version" | "nothing";
  breaking: SpecChange[];
  other: SpecChange[];
  /** Breaking changes accepted by the allow-list, not counted against `fail-on-breaking`. */
  allowed: SpecChange[];
  /**
   * Set when the spec could not be reviewed (its base side could not be read, or the comparison could
   * not finish: over its memory or time budget, a crash): why, completing "not reviewed: …". The lists
   * are then empty; `fail-on-breaking` does not count it, `fail-on-unreviewed` does.
   */
  notReviewed?: string;
  /**
   * Changes found past the review's listing cap (20,000, breaking ones listed first): counted, not
   * listed. `gitbook-openapi diff` counts them too.
   */
  omitted?: number;
}

/**
 * One API change as the results, the comment and `gitbook-openapi diff --json` carry it: the change
 * engine's `ApiChange` (src/core/changes) with its place written once, as `changePlace` writes it.
 */
export interface SpecChange {
  /** What changed: `operation-removed`, `required-parameter-added`, `type-narrowed`, … */
  kind: string;
  /** Where: `GET /pets/{id}` for an operation, `/pets/{id}` for a path; absent for the whole document. */
  operation?: string;
  /** The operation's `operationId`, when it has one (what `breaking-allowed` may name). */
  operationId?: string;
  /** What changed there, in words; never repeats the place. */
  message: string;
  /**
   * A JSON pointer into the compared head document (the base's for what was removed): what the change
   * concerns, the same from run to run whatever lines move (a Code Quality fingerprint's part).
   */
  pointer?: string;
  /** The file that writes it, relative to the workspace (a split spec's file, not only its root). */
  file?: string;
  /** The line of {@link file} that writes it, from 1 (what the head no longer has: its nearest part). */
  line?: number;
  /**
   * What the head no longer has, where the base commit wrote it: the file (relative to the workspace)
   * and line at the review's base commit, when the base's files were read.
   */
  baseFile?: string;
  baseLine?: number;
}

/** A spec's validation findings given as warnings: how many, and the lines logged (capped, the last counting the rest). */
export interface ValidationWarnings {
  count: number;
  lines: string[];
}
