import type { FileLister } from "../discovery/types.ts";
import type { CallOptions, Spec, SpecSource, SpecVersion, SpecVersionContent } from "../service/types.ts";
import type { OrganizationDirectory } from "./organization.ts";
import type { PublishRecord } from "./ownership.ts";
import type { SpecLister } from "./prune.ts";
import type { SpecResult } from "./result.ts";

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

/** The service as a run uses it: specs, the organization lookup, and closing its connections. */
/** Reads what a published version holds (its files, parsed), for comparisons. */
export interface VersionContentReader {
  getLatestVersionContent(orgId: string, slug: string, options?: CallOptions): Promise<SpecVersionContent>;
}

export type RunService = SpecService &
  OrganizationDirectory &
  SpecLister &
  VersionContentReader & { close(): Promise<void> };

/** What a run does: `cleanup` deletes a closed pull or merge request's previews. */
export type SyncMode = "publish" | "preview" | "check" | "cleanup";

/** The run's link is left out on purpose: it changes every run, so an unchanged result would still edit the comment. */
export interface ReviewRun {
  mode: SyncMode;
  results: readonly SpecResult[];
  /** Spec files the review's base had and the head no longer has. */
  removedSpecs?: readonly string[];
  /** Why the host stopped the run (`interrupted by SIGINT`), when it did: the results are partial. */
  interrupted?: string;
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
