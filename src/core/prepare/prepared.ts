import type { SourceLocation } from "../logger.ts";
import type { RecordedText } from "../ownership/ownership.ts";
import type { ValidationWarnings } from "../result.ts";
import type { SpecSource } from "../service/types.ts";

/** A problem found before any upload, located for a GitHub annotation. */
export interface LocalProblem {
  /** READ_ERROR: the file changed or vanished between discovery and its turn. */
  code: "SYNTAX_ERROR" | "FILE_TOO_LARGE" | "INVALID_SPEC" | "BUNDLE_ERROR" | "READ_ERROR" | "SHAPING_ERROR";
  message: string;
  location: SourceLocation;
  /** An error only because of `strict: true`: without it, a warning and the spec publishes. */
  strictOnly?: true;
  /** The line that counts the problems left out of a capped list: how many it stands for. */
  more?: number;
}

/** One spec after the local half of the pipeline: discovered, named, validated and bundled. */
export interface PreparedSpec {
  /** Relative to the workspace, `/`-separated. */
  file: string;
  slug: string;
  /** The document's `info.version`. */
  specVersion?: string;
  /** What the PUT sends; undefined when a local problem stops this spec. */
  source?: SpecSource;
  /**
   * The document as uploaded, parsed on first call; kept when the run compares it with the review's
   * base. A spec sent as written is only parsed if a comparison happens; one prepared in a worker gives
   * it packed (src/core/change-review/packed-document.ts), for the comparison's worker to build.
   */
  document?: () => unknown;
  /** A text upload's text with its publish record (../ownership/ownership.ts), made on first call. */
  recorded?: () => RecordedText;
  /** Files bundled into the text, root first, when it had external references. */
  bundledFiles?: string[];
  problems: LocalProblem[];
  /** Findings of the validation that GitBook takes, logged as warnings (without `strict`). */
  warnings?: ValidationWarnings;
  /**
   * Not worked on here: its steps are not bounded by its file's size (`PrepareOptions.boundedOnly`), so
   * they run in a worker (prepare-worker.ts).
   */
  handOff?: true;
}

/** The local steps of one spec, in the words a result uses ("timed out while bundling"). */
export type PreparePhase =
  | "reading"
  | "validating"
  | "bundling"
  | "validating the bundle"
  | "checking extensions"
  | "shaping"
  | "checking the shaped document"
  | "writing the shaped document"
  | "adding the publish record";
