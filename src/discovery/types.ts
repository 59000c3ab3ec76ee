import type { Logger } from "../logger.ts";

/** A problem at a place in a file; `file` is workspace-relative. Lines and columns start at 1. */
export interface LocatedProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface DiscoverOptions {
  /** Absolute path of the workspace (the repository checkout). */
  workspace: string;
  /** Globs relative to the workspace, `!` excludes, as `@actions/glob` reads them. None: the whole workspace. */
  patterns?: readonly string[];
  logger: Logger;
  /** How many files are read and parsed at once; default 16. */
  concurrency?: number;
}

export type SpecFormat = "yaml" | "json";
export type SpecFlavor = "openapi" | "swagger";

export interface DiscoveredSpec {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  absolutePath: string;
  format: SpecFormat;
  /** The exact file contents. */
  text: string;
  document: Record<string, unknown>;
  flavor: SpecFlavor;
  /** The value of `openapi` (e.g. "3.1.0") or `swagger` ("2.0"). */
  declaredVersion: string;
}

/** A file that declares `openapi`/`swagger` at its top level but cannot be parsed. */
export interface BrokenSpec {
  path: string;
  absolutePath: string;
  problem: LocatedProblem;
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
