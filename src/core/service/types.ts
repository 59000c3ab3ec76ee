/**
 * Resources of the specification-hosting service (its interface as the project was given it, completed
 * by the published description in `@gitbook/api`). Enumerations list the values the service is known to use
 * but stay open (`| (string & {})`) so that a value added by the server later never breaks parsing.
 */

export type OpenString<Known extends string> = Known | (string & {});

export const KNOWN_PROCESSING_STATES = ["pending", "progress", "complete"] as const;
export type ProcessingState = OpenString<(typeof KNOWN_PROCESSING_STATES)[number]>;

export const KNOWN_PROCESS_ERROR_CODES = ["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"] as const;
export type ProcessErrorCode = OpenString<(typeof KNOWN_PROCESS_ERROR_CODES)[number]>;

/** One problem the service found while processing a specification. */
export interface ProcessError {
  message: string;
  code?: string;
}

export interface Spec {
  object: "openapi-spec";
  id: string;
  createdAt: string;
  updatedAt: string;
  slug: string;
  sourceURL?: string;
  processingState: ProcessingState;
  visibility?: OpenString<"private" | "public">;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: ProcessError[];
  lastProcessedErrorCount?: number;
  permissions: { edit: boolean; view?: boolean };
  urls: { location: string; app: string; published?: string };
}

export interface SpecVersion {
  object: "openapi-spec-version";
  id: string;
  createdAt?: string;
  url: string;
  urls: { location: string; app?: string };
}

export interface SpecVersionContent {
  /**
   * The specification's files, as the service sent them. GitBook's renderer reads this as its OpenAPI
   * parser's `Filesystem`, a list of entries (docs/design/version-content.md); the published description says
   * only "object". Read it with `readVersionFiles`, which checks the shape.
   */
  filesystem: unknown;
  url?: string;
  urls?: { source: string; public: string | null };
}

/** One file of a version's content, as GitBook's OpenAPI parser describes it (`FilesystemEntry`). */
export interface FilesystemEntry {
  dir: string;
  filename: string;
  isEntrypoint: boolean;
  /** Other files of the filesystem this one refers to. */
  references: string[];
  /** The parsed document; not checked beyond being present. */
  specification: unknown;
}

/** A version's files when the filesystem has the known shape, or why it is not understood. */
export type VersionFiles =
  | { kind: "files"; entries: FilesystemEntry[] }
  | { kind: "unknown"; problem: string };

/** A specification source: fetched by the service from a URL, or the document's text. */
export type SpecSource = { url: string } | { text: string };

export interface Page<T> {
  items: T[];
  count?: number;
  /** Absent on the last page. */
  next?: { page: string };
}

/** Options of one read call. */
export interface CallOptions {
  /**
   * Epoch milliseconds (on the client's clock) by which this call ends, every attempt and retry
   * included. Earlier than the run's deadline, it bounds this call alone: past it the call fails with
   * `GitBookCallDeadlineError`, and the run's deadline is untouched. Later, the run's deadline governs.
   */
  deadline?: number;
}

export interface PageOptions {
  /** Identifier of the page to fetch, from a previous page's `next.page`. */
  page?: string;
  /** Results per page, 1 to 1000. */
  limit?: number;
}

export interface Organization {
  object: "organization";
  id: string;
  title: string;
  createdAt?: string;
  emailDomains?: string[];
  hostname?: string;
  type?: OpenString<"business">;
  useCase?: OpenString<"internalDocs">;
  communityType?: OpenString<"nonProfit">;
  defaultRole?: OpenString<"admin">;
  defaultContent?: { type: OpenString<"site">; site?: string };
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  plan?: OpenString<"free_2024">;
  billing?: {
    interval?: OpenString<"monthly">;
    endDate?: string;
    hasPaymentFailed?: boolean;
    isScheduledToCancel?: boolean;
  };
  urls: { location: string; app: string; logo?: string };
  trial?: { status?: OpenString<"notapplicable">; endDate?: string; decision?: OpenString<"downgrade"> };
  customHostname?: string;
  blocked?: { reason: OpenString<"security"> };
  internal_isOnNewTrial?: boolean;
  internal_billingMigration?: { deadline?: string; discountPercent?: number; discountEndDate?: string };
  permissions?: { admin?: boolean; createContent?: boolean };
}

/** The service's error body. */
export interface ApiErrorBody {
  error: { code: number | string; message: string };
}
