import type { Logger } from "../logger.ts";

/** A problem at a place in a file; `file` is workspace-relative. Lines and columns start at 1. */
export interface LocatedProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** The files git lists, or why it could not (not a work tree, no git). */
export type GitListing = { ok: true; paths: string[] } | { ok: false; reason: string };

/** Lists a work tree's files as git sees them: the `Git` port's `listFiles` (src/core/ports.ts). */
export interface FileLister {
  /**
   * Files of the git work tree at `workspace` that git does not ignore (tracked and untracked, nested
   * `.gitignore` files honoured), relative to `workspace`. The list can name tracked files deleted from
   * disk, submodule folders and, for untracked nested repositories, folders with a trailing `/`; callers
   * handle those when reading. `pathspecs` narrow the list inside git (e.g. `:(icase)*.yaml`).
   */
  listFiles(workspace: string, pathspecs: readonly string[]): Promise<GitListing>;
}

/** A lister for where git has nothing to say (a folder written out from a commit, a run without git): discovery walks. */
export const NO_GIT_LISTING: FileLister = {
  listFiles: async () => ({ ok: false, reason: "no git work tree to ask" }),
};

export interface DiscoverOptions {
  /** Absolute path of the workspace (the repository checkout). */
  workspace: string;
  /** Git's listing of the workspace, honouring `.gitignore`; when it fails, every folder is walked. */
  git: FileLister;
  /** Globs relative to the workspace, `!` excludes, read as `@actions/glob` reads them (patterns.ts). None: the whole workspace. */
  patterns?: readonly string[];
  /** Globs of files never published, taken out of what the patterns (or the whole workspace) give. */
  exclude?: readonly string[];
  logger: Logger;
  /** How many files are read and parsed at once; default 16. */
  concurrency?: number;
}

export type SpecFormat = "yaml" | "json";
export type SpecFlavor = "openapi" | "swagger";

/**
 * A file found to be an OpenAPI document. Discovery keeps no contents, so that memory follows the
 * specs being worked on, not their number: {@link loadSpec} reads them when the spec's turn comes.
 */
export interface DiscoveredSpec {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  absolutePath: string;
  /** The file's location with symbolic links resolved, checked to lie inside the workspace. */
  realPath: string;
  format: SpecFormat;
  flavor: SpecFlavor;
  /** The value of `openapi` (e.g. "3.1.0") or `swagger` ("2.0"). */
  declaredVersion: string;
  /** The file's size when discovered: what reading it will cost, for the pipeline's memory bound. */
  bytes: number;
}

/** A discovered spec with its contents, read and parsed. */
export interface LoadedSpec extends DiscoveredSpec {
  /** The exact file contents (a strict JSON spec's are decoded when first read here). */
  readonly text: string;
  /**
   * The parsed document. A strict JSON spec is only checked when read, and parsed on first use here:
   * checking it needs {@link field} alone, so a spec sent as it is written is never built in memory.
   */
  readonly document: Record<string, unknown>;
  /** A top-level field's value, read without parsing the whole document when it is not parsed yet. */
  field(key: string): unknown;
  /** False when reading it proved that it references no other file: it is sent as written. */
  referencesOtherFiles?: false;
}

/** A file that declares `openapi`/`swagger` at its top level but cannot be parsed. */
export interface BrokenSpec {
  path: string;
  absolutePath: string;
  problem: LocatedProblem;
  /** What is wrong, as the run reports it: it does not parse (the default), or it is over the size limit. */
  code?: "FILE_TOO_LARGE";
}

export interface DiscoveryResult {
  /** Sorted by path. */
  specs: DiscoveredSpec[];
  /** Sorted by path. */
  broken: BrokenSpec[];
}

/** Discovery cannot proceed as asked: a missing workspace, or a pattern that names a wrong file. */
export class DiscoveryError extends Error {
  override readonly name = "DiscoveryError";
}
