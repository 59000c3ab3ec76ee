import path from "node:path";
import * as glob from "@actions/glob";
import { DiscoveryError } from "./types.ts";

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

/**
 * Absolute paths of the files the patterns match, rooted at the workspace, as `@actions/glob` matches
 * them (git-ignored files included). `.git` and `node_modules` are left out unless a pattern names them.
 */
export async function matchPatternFiles(workspace: string, lines: readonly PatternLine[]): Promise<string[]> {
  const rooted = lines.map((line) => {
    if (path.isAbsolute(line.body) || line.body.startsWith("~")) {
      throw new DiscoveryError(
        `The pattern "${line.text}" is not relative to the workspace; write paths relative to the repository root.`,
      );
    }
    return `${line.negated ? "!" : ""}${escapeGlob(workspace)}/${line.body}`;
  });
  let files: string[];
  try {
    const globber = await glob.create(rooted.join("\n"), {
      // Never into a linked folder: a link to `/` or `..` would walk the runner's disk. Linked files are
      // listed, and discovery reads them only when their real path lies inside the workspace.
      followSymbolicLinks: false,
      implicitDescendants: true,
      matchDirectories: false,
      omitBrokenSymbolicLinks: true,
    });
    files = await globber.glob();
  } catch (error) {
    throw new DiscoveryError(`The file patterns cannot be used: ${(error as Error).message}`);
  }
  const namedFolders = [".git", "node_modules"].filter((folder) =>
    lines.some((line) => !line.negated && line.body.split("/").includes(folder)),
  );
  const hidden = [".git", "node_modules"].filter((folder) => !namedFolders.includes(folder));
  return files.filter((file) => {
    const segments = path.relative(workspace, file).split(path.sep);
    return !segments.some((segment) => hidden.includes(segment));
  });
}

/** Same escaping as `@actions/glob` applies to the working directory. */
function escapeGlob(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/(\[)(?=[^/]+\])/g, "[[]")
    .replace(/\?/g, "[?]")
    .replace(/\*/g, "[*]");
}
