import type { ApiChange, ApiChanges } from "./changes/index.ts";
import type { FileLister } from "./discovery/types.ts";
import type { Logger } from "./logger.ts";
import type { PublishRecord } from "./ownership/ownership.ts";
import type { SpecResult } from "./result.ts";
import type {
  CallOptions,
  Organization,
  Spec,
  SpecSource,
  SpecVersion,
  SpecVersionContent,
} from "./service/types.ts";

/** A read's own bound, inside the run's: `deadline` (epoch ms) ends the call, its retries included. */
export interface ReadOptions {
  deadline?: number;
}

/** The calls the sync pipeline makes to the service; `GitBookClient` implements it. */
export interface SpecService {
  putSpec(orgId: string, slug: string, source: SpecSource): Promise<{ spec: Spec; created: boolean }>;
  getSpec(orgId: string, slug: string, options?: ReadOptions): Promise<Spec>;
  getVersion(orgId: string, slug: string, versionId: string): Promise<SpecVersion>;
  getLatestVersion(orgId: string, slug: string): Promise<SpecVersion>;
  getVersionContent(
    orgId: string,
    slug: string,
    versionId: string,
    options?: ReadOptions,
  ): Promise<SpecVersionContent>;
  deleteSpec(orgId: string, slug: string): Promise<void>;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A version proven, by reading its content, to hold a text of this tool's: the version's id and the
 * publish record found in it (docs/design/rerun-cache.md).
 */
export interface RememberedVersion {
  version: string;
  record: PublishRecord;
  /** The version's link, as GitBook gave it. */
  versionUrl?: string;
}

/**
 * The re-run cache: the versions earlier runs proved, by slug, kept by the CI between
 * runs. Its adapter checks what it reads (every entry sealed with a key only the token's holder has);
 * what it answers is still only ever compared with GitBook's listing, never believed on its own.
 */
export interface VersionMemory {
  /** The entries of an organization that passed the checks; empty when none did (said as a warning). */
  recall(organizationId: string): Promise<ReadonlyMap<string, RememberedVersion>>;
  /** Replaces the organization's entries with these; a failure is a warning, never the run's. */
  keep(organizationId: string, entries: ReadonlyMap<string, RememberedVersion>): Promise<void>;
}

/**
 * When to look again at a spec the service is processing. The first look comes after
 * `firstDelayMs`, each next one `growth` times later, capped at `maxDelayMs`, each with ±`jitter`
 * so that many specs uploaded together do not poll in lockstep (core/publish/poll-schedule.ts).
 */
export interface PollSchedule {
  firstDelayMs: number;
  growth: number;
  maxDelayMs: number;
  jitter: number;
}

/** Reads what a published version holds (its files, parsed), for comparisons. */
export interface VersionContentReader {
  getLatestVersionContent(orgId: string, slug: string, options?: CallOptions): Promise<SpecVersionContent>;
}

export interface OrganizationDirectory {
  listOrganizationsByEmailDomain(domain: string): Promise<Organization[]>;
}

/** Lists every spec of an organization, through every page. */
export interface SpecLister {
  iterateSpecs(orgId: string, options?: { limit?: number }): AsyncIterable<Spec>;
}

/** The service as a run uses it: specs, the organization lookup, and closing its connections. */
export type RunService = SpecService &
  OrganizationDirectory &
  SpecLister &
  VersionContentReader & { close(): Promise<void> };

/** What a run does: `cleanup` deletes a closed pull or merge request's previews. */
export type SyncMode = "publish" | "preview" | "check" | "cleanup";

/**
 * The web page of line `line` of `file` (relative to the repository's root) at `commit`; undefined when
 * no page can be named safely (a file name no repository holds, a commit that is not an id).
 */
export type LineUrl = (commit: string, file: string, line: number) => string | undefined;

/** What a host gives the run: its line pages, and the commit the head's places link to. */
export interface SourceLinks {
  lineUrl: LineUrl;
  /** The head's commit as the host shows it (a pull request's head, else the commit built). */
  headCommit: string | undefined;
}

/** The comment's links: a place of the head, a place of the base; each absent when it cannot link. */
export interface PlaceLinks {
  head?: ((file: string, line: number) => string | undefined) | undefined;
  base?: ((file: string, line: number) => string | undefined) | undefined;
}

/** The run's link is left out on purpose: it changes every run, so an unchanged result would still edit the comment. */
export interface ReviewRun {
  mode: SyncMode;
  results: readonly SpecResult[];
  /** Spec files the review's base had and the head no longer has. */
  removedSpecs?: readonly string[];
  /** Why the host stopped the run (`interrupted by SIGINT`), when it did: the results are partial. */
  interrupted?: string;
  /** Where the comment links each change's place; plain `file:line` without. */
  links?: PlaceLinks | undefined;
}

/** The one living comment (GitHub) or note (GitLab) of the pull or merge request a run previews. */
export interface ReviewThread {
  /** Preview slugs that earlier runs recorded in it. */
  recordedPreviews(): Promise<string[]>;
  /** Creates or edits it; returns its URL, or undefined when it could not be written. */
  publish(run: ReviewRun): Promise<string | undefined>;
}

/**
 * The files of a commit, written out for reading (`skipped`: files not written, each with why); `ok:
 * false` says why they cannot be had, `missing` when git answered that the checkout lacks the commit
 * and it could not be fetched (a shallow clone, an unknown commit), rather than failing to read it.
 */
export type BaseTree =
  | {
      ok: true;
      root: string;
      commit: string;
      skipped?: ReadonlyMap<string, string>;
      dispose(): Promise<void>;
    }
  | { ok: false; reason: string; missing?: true };

/** A file as a commit has it: its text, or undefined when the commit has no such file. */
export type FileAtCommit = { ok: true; text: string | undefined } | { ok: false; reason: string };

/** Whether one commit precedes another; `known: false` when git cannot tell (shallow clone, unknown commit). */
export type Ancestry = { known: true; ancestor: boolean } | { known: false; reason: string };

/** Git, for what the run asks of commits and of the work tree (src/adapters/git). */
export interface Git extends FileLister {
  /** The commit's files written out, for the change review's base side. */
  checkoutTree(workspace: string, commit: string, options?: { timeoutMs?: number }): Promise<BaseTree>;
  /** One file of a commit (the base commit's configuration file). */
  fileAt(workspace: string, commit: string, file: string): Promise<FileAtCommit>;
  /** Whether `ancestor` is `descendant` or one of its ancestors. */
  isAncestor(workspace: string, ancestor: string, descendant: string): Promise<Ancestry>;
  /** The commit the work tree is at, when git can tell. */
  headCommit(workspace: string): Promise<string | undefined>;
}

/**
 * What a live display needs: how many specs there are, each spec past its upload (or its local checks),
 * and each spec's end with its result.
 */
export type ProgressEvent =
  | { kind: "planned"; total: number }
  | { kind: "staged" }
  | { kind: "finished"; result: SpecResult };

export type ProgressListener = (event: ProgressEvent) => void;

/** Classifies API changes (src/core/changes), for the change review of previews. */
export interface ChangeComparer {
  /**
   * The changes from `before` to `after`; rejects when the comparison cannot finish (a
   * {@link NotReviewedError} says why). `log` receives what is worth a debug line. A document made in
   * the preparation's worker comes packed (change-review/packed-document.ts, `unpackDocument`).
   */
  compare(before: unknown, after: unknown, log?: DebugLog): Promise<ApiChanges>;
  /** Whether the allow-list (operation ids, paths, `METHOD /path`) accepts a breaking change. */
  isAllowed(change: ApiChange, allowList: readonly string[]): boolean;
}

/** Where console output from the worker is summarised. */
export interface DebugLog {
  debug(message: string): void;
}

/** Every door the run (src/core/run/run.ts) goes out through. */
export interface SyncPorts {
  /** The service, for a run with a token; undefined without one (check mode only). */
  createService: ((deadline: number) => RunService) | undefined;
  /** The review's comment or note, when the run previews a pull or merge request and may write it. */
  openReview?: ((deadline: number) => ReviewThread | undefined) | undefined;
  clock: Clock;
  logger: Logger;
  /** Told as specs move through the pipeline, for a live display. */
  progress?: ProgressListener | undefined;
  /** Classifies API changes, for the change review of previews. */
  comparer?: ChangeComparer | undefined;
  /**
   * Lists the workspace's files and reads the review's base commit; without it, discovery searches every
   * folder (what git ignores too) and specs are compared with their published versions.
   */
  git?: Git | undefined;
  /**
   * The host's stop (SIGINT or SIGTERM): once aborted, no spec starts (each left is skipped, "Not
   * started: <reason>"), those under way get a short grace to end (else they are cancelled), and the
   * run ends there — no pruning; the review comment written under a grace of its own (./run/stop-grace.ts)
   * — reporting `stoppedBy: stop.reason`.
   */
  stop?: AbortSignal | undefined;
  /**
   * Test knobs of the local steps' workers (./prepare/prepare-worker.ts): the module they run (one with faults),
   * how long a spec may hold one before the next gets a spare, and a lane of this depth however few
   * bytes the run has.
   */
  preparation?: { entry?: string | URL; slowMs?: number; laneDepth?: number } | undefined;
  /**
   * The re-run cache (docs/design/rerun-cache.md), which the host gives only to runs that publish live,
   * never to a pull or merge request's: read before the uploads, written with what this run proved.
   */
  memory?: VersionMemory | undefined;
  /**
   * When a spec being processed is read again: alone, by `schedule` (`DEFAULT_POLL_SCHEDULE` unless
   * given); in a shared listing, at least as often as `schedule` and at most every `listIntervalMs`
   * (300 ms unless given). Tests: milliseconds.
   */
  polling?: { schedule?: PollSchedule; listIntervalMs?: number } | undefined;
}
