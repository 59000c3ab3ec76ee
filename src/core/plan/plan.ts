import type { SourceLinks, SyncMode } from "../ports.ts";
import type { ShapingConfig } from "../shaping/publish-targets.ts";
import type { OrganizationRef, RunSettings } from "./run-settings.ts";
import type { SettingNames } from "./settings.ts";

/** The pull or merge request a run previews or cleans up after. */
export interface ReviewTarget {
  /** How messages name it: "pull request #12", "merge request !7". */
  label: string;
  /** How messages name its comment: "pull request comment", "merge request note". */
  commentLabel: string;
  /** What a preview slug ends with: "-pr-12". */
  previewSuffix: string;
  /** The slug a spec's preview is published under. */
  previewSlug(slug: string): string;
  /** Whether a slug is one of this review's previews: only those are ever deleted. */
  isOwnPreview(slug: string): boolean;
}

/** Everything a run needs to know, decided by the host from its inputs and its CI's event. */
export interface SyncPlan {
  /** Absolute path of the checkout. */
  workspace: string;
  mode: SyncMode;
  /** Globs relative to the workspace; undefined discovers every OpenAPI document. */
  files: readonly string[] | undefined;
  /** Globs of files never published (`exclude`). */
  exclude?: readonly string[];
  slugMapping: ReadonlyMap<string, string>;
  slugPrefix: string | undefined;
  /** Names a spec at the workspace's root (see the slug rule). */
  repositoryName: string;
  /**
   * Set when nothing named the repository, so `repositoryName` is the checkout folder's: the warning the
   * run gives once when a spec is named after it.
   */
  repositoryNameGuess?: string | undefined;
  /**
   * Which repository this is, as `host/path` (`github.com/acme/widgets`, see `repositoryIdentity`): with
   * the slug prefix, the owner in every publish record. Undefined when the host cannot tell: nothing is
   * then pruned.
   */
  repositoryIdentity: string | undefined;
  /**
   * The commit the run publishes from (the host's: `GITHUB_SHA`, `CI_COMMIT_SHA`, else git's HEAD),
   * written into each publish record; pruning deletes only specs recorded at it or an ancestor of it.
   */
  commit?: string | undefined;
  /** Set in `preview` and `cleanup` modes. */
  review: ReviewTarget | undefined;
  /** Undefined only in check mode without a token. */
  organization: OrganizationRef | undefined;
  /** Builds the URL the service fetches (`source: url`); undefined uploads the bundled text. */
  sourceUrlFor: ((file: string) => string) | undefined;
  /** How the review comment links a place to its line on the repository's host; plain text without. */
  lineLinks?: SourceLinks | undefined;
  wait: boolean;
  timeoutSeconds: number;
  /** Requests to the service in flight at once. */
  concurrency: number;
  /** Do not upload a spec GitBook already holds unchanged (off with `force`, and for URL sources). */
  skipUnchanged: boolean;
  /** Delete the specs under `slugPrefix` the repository no longer has (publish mode; check mode lists them). */
  prune: { limit: number } | undefined;
  /**
   * Compare each preview's document with the review's base (preview mode; check mode when the host
   * asks for the review alone, as `diff --base` does).
   */
  changeReview?:
    | {
        /** The commit the review is based on; undefined: compare with the published versions. */
        baseCommit: string | undefined;
        /** A breaking change fails the run. */
        failOnBreaking: boolean;
        /** With `failOnBreaking`, a spec that could not be reviewed fails the run too. */
        failOnUnreviewed?: boolean;
        /** Breaking changes accepted on purpose: operation ids, paths, or `METHOD /path`. */
        allowed: readonly string[];
      }
    | undefined;
  /** How messages name the host's settings. */
  names: SettingNames;
  /** Overlays, remove-internal and audiences per spec file (src/core/shaping). */
  shaping?: ShapingConfig;
  /** Every validation finding fails its spec (`strict`); by default only what GitBook cannot take. */
  strict?: boolean | undefined;
}

/** What only the host can say: where, in which mode, about which review, and how it names settings. */
export interface HostFacts {
  workspace: string;
  mode: SyncMode;
  repositoryName: string;
  /** Why `repositoryName` is only the checkout folder's, when it is. */
  repositoryNameGuess?: string | undefined;
  repositoryIdentity: string | undefined;
  /** The commit the run publishes from, when the host knows it. */
  commit?: string | undefined;
  review: ReviewTarget | undefined;
  sourceUrlFor: ((file: string) => string) | undefined;
  /** The repository host's line pages, when the host knows the repository and the head's commit. */
  lineLinks?: SourceLinks | undefined;
  /** The commit a preview is compared with, when the host knows it. */
  baseCommit: string | undefined;
  names: SettingNames;
}

/** The run's plan from its settings and what the host knows: one rule for the Action and the CLI. */
export function planOf(config: RunSettings, host: HostFacts): SyncPlan {
  return {
    workspace: host.workspace,
    mode: host.mode,
    files: config.files,
    exclude: config.exclude,
    slugMapping: config.slugMapping,
    slugPrefix: config.slugPrefix,
    repositoryName: host.repositoryName,
    ...(host.repositoryNameGuess ? { repositoryNameGuess: host.repositoryNameGuess } : {}),
    repositoryIdentity: host.repositoryIdentity,
    commit: host.commit,
    review: host.review,
    organization: config.organization,
    sourceUrlFor: host.sourceUrlFor,
    ...(host.lineLinks ? { lineLinks: host.lineLinks } : {}),
    wait: config.wait,
    timeoutSeconds: config.timeoutSeconds,
    concurrency: config.concurrency,
    skipUnchanged: !config.force && config.source === "text",
    prune: config.prune ? { limit: config.pruneLimit } : undefined,
    changeReview:
      host.mode === "preview"
        ? {
            baseCommit: host.baseCommit,
            failOnBreaking: config.failOnBreaking,
            failOnUnreviewed: config.failOnUnreviewed,
            allowed: config.breakingAllowed,
          }
        : undefined,
    names: host.names,
    ...(config.shaping?.size ? { shaping: config.shaping } : {}),
    strict: config.strict,
  };
}
