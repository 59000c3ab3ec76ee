import type { ShapingConfig } from "../shaping/publish-targets.ts";
/** A run's settings, read once (src/settings/inputs.ts) from the Action's inputs or the CLI's flags and variables, over the configuration file; each declared in src/settings/settings-table.ts. */
export type RequestedMode = "auto" | "publish" | "preview" | "check";
export type SourceMode = "text" | "url";

export type OrganizationRef = { kind: "id"; id: string } | { kind: "email-domain"; domain: string };

export interface RunSettings {
  /** The GitBook API token; undefined only in check mode or a fork's pull request. */
  readonly token: string | undefined;
  /** Undefined only in check mode without a token. */
  readonly organization: OrganizationRef | undefined;
  /** Globs relative to the workspace; undefined discovers every OpenAPI document. */
  readonly files: readonly string[] | undefined;
  /** Globs of files never published. */
  readonly exclude: readonly string[];
  /** Explicit `path: slug` lines, already parsed and checked. */
  readonly slugMapping: ReadonlyMap<string, string>;
  readonly slugPrefix: string | undefined;
  readonly source: SourceMode;
  readonly mode: RequestedMode;
  readonly wait: boolean;
  readonly timeoutSeconds: number;
  readonly concurrency: number;
  readonly apiUrl: string;
  readonly comment: boolean;
  readonly commentKey: string;
  readonly githubToken: string | undefined;
  /** Delete the specs this repository published under `slugPrefix` and no longer has (../prune/prune.ts).*/
  readonly prune: boolean;
  /** Above this many specs to prune, the run fails and deletes nothing. */
  readonly pruneLimit: number;
  /** Upload even a spec GitBook already holds unchanged. */
  readonly force: boolean;
  /** The re-run cache's file, as given (relative to where the host says); undefined: none. */
  readonly cacheFile?: string | undefined;
  /** In previews, a breaking API change fails the run. */
  readonly failOnBreaking: boolean;
  /** With `failOnBreaking`, a spec that could not be reviewed fails the run too. */
  readonly failOnUnreviewed: boolean;
  /** Breaking changes accepted on purpose: operation ids, paths, or `METHOD /path`, one a line. */
  readonly breakingAllowed: readonly string[];
  /** Overlays, remove-internal and audiences per spec file, from the configuration file's `specs:`. */
  readonly shaping?: ShapingConfig;
  /** Every validation finding fails its spec (`strict`); by default only what GitBook cannot take. */
  readonly strict?: boolean;
  /** The memory and time of one API change comparison (`review-heap-mb`, `review-timeout-ms`). */
  readonly reviewBudget: ReviewBudget;
}

/**
 * One comparison's bounds, given by the host (the settings `review-heap-mb` and `review-timeout-ms`,
 * src/settings/settings-table.ts, with why their defaults are what they are in docs/design/change-review.md).
 */
export interface ReviewBudget {
  heapMb: number;
  timeoutMs: number;
}
