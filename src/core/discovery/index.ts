/**
 * Discovery of the OpenAPI documents in a workspace: `.yaml`, `.yml` and `.json` files whose top level
 * says `openapi: "3.…"` or `swagger: "2.0"` (classify.ts), by patterns or over the whole workspace less
 * `.git`, `node_modules` and what git ignores. The rules as users read them: docs/publishing.md.
 */
import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import type { Logger } from "../logger.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { type Inspection, inspectCandidate } from "./inspect.ts";
import { excludedBy, matchPatternFiles, type PatternLine, readPatternLines } from "./patterns.ts";
import { CANDIDATE_PATHSPECS, isCandidatePath } from "./prefilter.ts";
import {
  type BrokenSpec,
  type DiscoveredSpec,
  type DiscoverOptions,
  DiscoveryError,
  type DiscoveryResult,
  type FileLister,
} from "./types.ts";
import { EXCLUDED_FOLDERS, walkFiles } from "./walk.ts";

export type { Inspection } from "./inspect.ts";
export { type LoadOutcome, loadSpec } from "./load.ts";
export * from "./types.ts";

/** What discovery makes of one workspace-relative file, whatever the patterns: a spec, a broken one, or why not. */
export async function inspectFile(workspace: string, relativePath: string): Promise<Inspection> {
  const root = path.resolve(workspace);
  return inspectCandidate(await realFolder(root), root, relativePath);
}

const DEFAULT_CONCURRENCY = 16;

export async function discoverSpecs(options: DiscoverOptions): Promise<DiscoveryResult> {
  const { logger } = options;
  const workspace = path.resolve(options.workspace);
  const realWorkspace = await realFolder(workspace);
  const lines = readPatternLines(options.patterns ?? []);

  const candidates =
    lines.length === 0
      ? await listWorkspaceCandidates(options.git, workspace, logger)
      : (await matchPatternFiles(workspace, lines)).map((file) => toRelative(workspace, file));
  const excluded = excludedBy(options.exclude ?? []);
  const inspections = await pLimit(options.concurrency ?? DEFAULT_CONCURRENCY).map(
    candidates.filter((file) => isCandidatePath(file) && !excluded(file)),
    (relativePath) => inspectCandidate(realWorkspace, workspace, relativePath),
  );

  const specs = new Map<string, DiscoveredSpec>(); // by real path: a linked file is one spec
  const broken: BrokenSpec[] = [];
  for (const inspection of inspections) {
    if (inspection.kind === "spec")
      keepOne(specs, inspection.realPath, inspection.spec, realWorkspace, logger);
    else if (inspection.kind === "broken") broken.push(inspection.broken);
    else report(inspection, logger);
  }
  if (lines.length > 0) await checkLiteralPatterns(workspace, lines, inspections);

  const byPath = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return { specs: [...specs.values()].sort(byPath), broken: broken.sort(byPath) };
}

async function realFolder(workspace: string): Promise<string> {
  try {
    const real = await fs.realpath(workspace);
    if ((await fs.stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new DiscoveryError(
    `The workspace ${workspace} does not exist or is not a folder; check out the repository first.`,
  );
}

async function listWorkspaceCandidates(
  git: FileLister,
  workspace: string,
  logger: Logger,
): Promise<string[]> {
  const listing = await git.listFiles(workspace, CANDIDATE_PATHSPECS);
  if (!listing.ok) {
    const isRepository = await fs.stat(path.join(workspace, ".git")).then(
      () => true,
      () => false,
    );
    const message = `git could not list the files (${listing.reason}); searching every folder instead`;
    if (isRepository) {
      logger.warning(
        `${message}, so files that git ignores are searched too. Use the file patterns input to narrow it.`,
      );
    } else {
      logger.debug(`${message}.`);
    }
    return walkFiles(workspace, { wanted: (_relative, name) => isCandidatePath(name) });
  }
  return listing.paths.filter(
    (file) => isCandidatePath(file) && !file.split("/").some((segment) => EXCLUDED_FOLDERS.has(segment)),
  );
}

/**
 * A symbolic link to a spec inside the workspace and the spec itself are one spec, listed under the
 * file's real path when that is among the candidates, else under the first link in path order.
 */
function keepOne(
  specs: Map<string, DiscoveredSpec>,
  realPath: string,
  spec: DiscoveredSpec,
  realWorkspace: string,
  logger: Logger,
): void {
  const kept = specs.get(realPath);
  if (kept === undefined) {
    specs.set(realPath, spec);
    return;
  }
  const realRelative = toRelative(realWorkspace, realPath);
  const [winner, loser] =
    spec.path === realRelative || (kept.path !== realRelative && spec.path < kept.path)
      ? [spec, kept]
      : [kept, spec];
  specs.set(realPath, winner);
  logger.debug(`Skipped ${loser.path}: it is a symbolic link to ${winner.path}, which is published once.`);
}

function report(inspection: Exclude<Inspection, { kind: "spec" | "broken" }>, logger: Logger): void {
  switch (inspection.kind) {
    case "outside":
      logger.warning(
        `Skipped ${inspection.path}: it is a symbolic link to ${inspection.target}, outside the workspace; ` +
          "files outside the workspace are never read or uploaded.",
        { file: inspection.path },
      );
      return;
    case "unreadable":
      if (inspection.warn) logger.warning(`Skipped: ${escapeUntrusted(inspection.reason)}`);
      else logger.debug(`Skipped ${inspection.path}: ${inspection.reason}.`);
      return;
    case "not-spec":
      if (inspection.suspicious) {
        logger.warning(`Skipped ${inspection.path}: ${inspection.reason}.`, {
          file: inspection.path,
          line: 1,
        });
      } else {
        logger.debug(`Skipped ${inspection.path}: not an OpenAPI document (${inspection.reason}).`);
      }
      return;
  }
}

/** A pattern without wildcards names a file the user expects to publish: it must exist and be a spec. */
async function checkLiteralPatterns(
  workspace: string,
  lines: readonly PatternLine[],
  inspections: readonly Inspection[],
): Promise<void> {
  const byPath = new Map(inspections.map((inspection) => [pathOf(inspection), inspection]));
  const problems: string[] = [];
  for (const line of lines) {
    if (line.negated || !line.literal) continue;
    const relative = toRelative(workspace, path.join(workspace, line.body));
    const inspection = byPath.get(relative);
    if (inspection === undefined) {
      const stats = await fs.stat(path.join(workspace, relative)).catch(() => undefined);
      if (stats === undefined)
        problems.push(`The pattern "${line.text}" names ${relative}, which does not exist.`);
      else if (stats.isFile() && !isCandidatePath(relative)) {
        problems.push(
          `The pattern "${line.text}" names ${relative}, which is not a .yaml, .yml or .json file.`,
        );
      }
      continue; // a folder, or a file excluded by a later `!` pattern
    }
    if (inspection.kind === "not-spec") {
      problems.push(
        `The pattern "${line.text}" names ${relative}, which is not an OpenAPI document: ${inspection.reason}.`,
      );
    } else if (inspection.kind === "unreadable" && inspection.missing) {
      problems.push(`The pattern "${line.text}" names ${relative}, which does not exist.`);
    }
  }
  if (problems.length > 0) {
    throw new DiscoveryError(`${problems.join("\n")}\nFix or remove these lines of the file patterns input.`);
  }
}

function pathOf(inspection: Inspection): string {
  if (inspection.kind === "spec") return inspection.spec.path;
  if (inspection.kind === "broken") return inspection.broken.path;
  return inspection.path;
}

function toRelative(workspace: string, file: string): string {
  return path.relative(workspace, file).split(path.sep).join("/");
}
