/**
 * The `files` input: globs relative to the workspace, read line by line as `@actions/glob` reads them
 * (the semantics GitHub users know), matched with `minimatch` (the matcher `@actions/glob` itself uses,
 * with its options) on the files the workspace's walk lists (./walk.ts). Neither prints anything; `@actions/glob` logged
 * `::debug::` lines of its own and is GitHub-only, which the CI-neutral core must not be.
 */
import fs from "node:fs/promises";
import { platform } from "node:os";
import path from "node:path";
import { Minimatch, type MinimatchOptions } from "minimatch";
import { DiscoveryError } from "./types.ts";
import { walkFiles } from "./walk.ts";

export interface PatternLine {
  /** As the user wrote it. */
  text: string;
  negated: boolean;
  /** The pattern without `!`, relative to the workspace. */
  body: string;
  /** No wildcard: the pattern names one file (or folder). */
  literal: boolean;
}

/** Non-blank, non-comment lines of the patterns input. */
export function readPatternLines(patterns: readonly string[]): PatternLine[] {
  return patterns
    .flatMap((block) => block.split(/\r?\n/))
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((text) => {
      const negated = text.startsWith("!");
      const body = (negated ? text.slice(1) : text).replaceAll("\\", "/").replace(/^(\.\/)+/, "");
      return { text, negated, body, literal: !/[*?[]|[+@!]\(/.test(body) };
    });
}

/** `@actions/glob`'s minimatch options: only `*`, `?`, `[…]` and `**` are special; dot files match. */
const MINIMATCH_OPTIONS: MinimatchOptions = {
  dot: true,
  nobrace: true,
  nocase: platform() === "win32",
  nocomment: true,
  noext: true,
  nonegate: true,
};

/** One pattern as `@actions/glob` compiles it, relative to the workspace. */
interface CompiledPattern {
  negate: boolean;
  matcher: Minimatch;
  /** Ends with `/`: matches folders only, so no file directly (its implicit descendants do). */
  foldersOnly: boolean;
  /** Ends with a `**` segment the user wrote: the path is tested with a trailing `/`, as there. */
  endsWithGlobstar: boolean;
}

/**
 * Workspace-relative `/`-separated paths become absolute: the files the patterns match, with the
 * semantics of `@actions/glob` with `implicitDescendants` (a folder's pattern covers every file under
 * it), dot files included, lines applied in order (a `!` line removes what earlier lines matched, a
 * later line can add it back), git-ignored files included. Symbolic links are listed as the files
 * they are and never walked into, even when they point to a folder (which is then left out, as are
 * broken links); discovery reads a linked file only when its real path lies inside the workspace.
 * `.git` and `node_modules` are left out unless a pattern names them.
 */
export async function matchPatternFiles(workspace: string, lines: readonly PatternLine[]): Promise<string[]> {
  const patterns = lines.flatMap(compile);
  const positives = patterns.filter((pattern) => !pattern.negate);
  const root = path.resolve(workspace);
  const namedFolders = [".git", "node_modules"].filter((folder) =>
    lines.some((line) => !line.negated && line.body.split("/").includes(folder)),
  );
  const hidden = [".git", "node_modules"].filter((folder) => !namedFolders.includes(folder));
  let listed: string[];
  try {
    listed = await walkFiles(root, {
      wanted: (file) => matches(patterns, file),
      // Into a folder only while some pattern could still match below it (as `@actions/glob` prunes).
      enter: (folder, name) =>
        !hidden.includes(name) && positives.some((pattern) => pattern.matcher.match(folder, true)),
      strict: true,
    });
  } catch (error) {
    throw new DiscoveryError(`The file patterns cannot be used: ${(error as Error).message}`);
  }

  const kept = listed.filter((file) => !file.split("/").some((segment) => hidden.includes(segment)));
  // A symbolic link is listed as a file without following it; drop those to folders or to nothing.
  const files = await Promise.all(
    kept.map(async (file) => {
      const absolute = path.join(root, file);
      const stats = await fs.stat(absolute).catch((error: NodeJS.ErrnoException) => error);
      if (stats instanceof Error) return stats.code === "ENOENT" || stats.code === "ELOOP" ? [] : [absolute];
      return stats.isDirectory() ? [] : [absolute];
    }),
  );
  return files.flat().sort();
}

/**
 * Whether a workspace-relative file is matched by any of the `exclude` globs (read as `files` lines are,
 * a folder covering what is under it); such a file is never published.
 */
export function excludedBy(globs: readonly string[]): (relativePath: string) => boolean {
  const patterns = readPatternLines(globs).flatMap((line) => compile({ ...line, negated: false }));
  return (relativePath) => patterns.length > 0 && matches(patterns, relativePath);
}

/** A line and, for `implicitDescendants`, the same line followed by `/**` (as `@actions/glob` adds it). */
function compile(line: PatternLine): CompiledPattern[] {
  if (path.isAbsolute(line.body) || line.body.startsWith("~")) {
    throw new DiscoveryError(
      `The pattern "${line.text}" is not relative to the workspace; write paths relative to the repository root.`,
    );
  }
  // As there, `!!x` excludes a file named `!x`, and `! x` one named ` x`.
  const body = line.body;
  const segments = body.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => [".", ".."].includes(literalOf(segment)))) {
    throw new DiscoveryError(
      `The file patterns cannot be used: the pattern "${line.text}" has a "." or ".." segment; write paths from the repository root.`,
    );
  }
  const foldersOnly = body.endsWith("/") || segments.length === 0;
  const endsWithGlobstar = segments.at(-1) === "**";
  const make = (parts: string[], implicit: boolean): CompiledPattern => ({
    negate: line.negated,
    matcher: new Minimatch(parts.join("/"), MINIMATCH_OPTIONS),
    foldersOnly: implicit ? false : foldersOnly,
    endsWithGlobstar: implicit ? false : endsWithGlobstar,
  });
  const own = make(segments, false);
  return foldersOnly || !endsWithGlobstar ? [own, make([...segments, "**"], true)] : [own];
}

/** Whether the lines, in order, leave the file included (`@actions/glob`'s `match` for a file). */
function matches(patterns: readonly CompiledPattern[], file: string): boolean {
  let included = false;
  for (const pattern of patterns) {
    if (pattern.foldersOnly || included === !pattern.negate) continue;
    if (pattern.matcher.match(pattern.endsWithGlobstar ? `${file}/` : file)) included = !pattern.negate;
  }
  return included;
}

/** The segment as a plain name when it has no wildcard (`[x]` is `x`), else "" (`@actions/glob`'s rule). */
function literalOf(segment: string): string {
  let literal = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string;
    if (char === "*" || char === "?") return "";
    if (char === "[") {
      const closed = segment.indexOf("]", i + 1);
      if (closed > i + 1) {
        if (closed > i + 2) return "";
        literal += segment[i + 1];
        i = closed;
        continue;
      }
    }
    literal += char;
  }
  return literal;
}
