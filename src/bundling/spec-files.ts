import { readFile, realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import { BundleError } from "./errors.ts";
import { pointerMayExist } from "./pointer.ts";
import { locateRef } from "./ref-target.ts";
import { type ParsedSource, parseSource, SourceSyntaxError } from "./source-file.ts";

/** One file of a multi-file spec, parsed. `path` is absolute, `relative` workspace-relative with '/'. */
export interface SpecFile {
  path: string;
  relative: string;
  source: ParsedSource;
}

/** Reads a file of the workspace; rejects with `code: "ENOENT"` when it does not exist. */
export type ReadText = (absolutePath: string) => Promise<string>;

export function workspaceRelative(workspace: string, absolutePath: string): string {
  return relative(workspace, absolutePath).split(sep).join("/");
}

/**
 * Every file reachable from `root` through `$ref`s, root first, each read and parsed once. Each reference
 * is checked where it is written, so an error names the file, the reference and its position.
 */
export async function collectSpecFiles(
  root: SpecFile,
  workspace: string,
  readText: ReadText,
): Promise<SpecFile[]> {
  const files = [root];
  const requested = new Set([root.path]);
  let level = [root];
  while (level.length > 0) {
    const next: Promise<SpecFile>[] = [];
    for (const file of level) {
      for (const occurrence of file.source.refs) {
        const target = locateRef(occurrence.ref, file.path, workspace);
        const where = {
          file: file.relative,
          ref: occurrence.ref,
          line: occurrence.line,
          column: occurrence.column,
        };
        if (target.kind === "internal") continue;
        if (target.kind === "refused") throw new BundleError(target.reason, where);
        if (!requested.has(target.path)) {
          requested.add(target.path);
          next.push(loadFile(target.path, workspace, readText, where));
        }
      }
    }
    level = await Promise.all(next);
    files.push(...level);
  }
  checkPointers(files, workspace);
  return files;
}

async function loadFile(
  path: string,
  workspace: string,
  readText: ReadText,
  where: ConstructorParameters<typeof BundleError>[1],
): Promise<SpecFile> {
  const relativePath = workspaceRelative(workspace, path);
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    if (isMissing(error)) {
      throw new BundleError(
        `points to ${relativePath}, which does not exist. Check the path and its case.`,
        where,
      );
    }
    throw new BundleError(`points to ${relativePath}, which cannot be read: ${describe(error)}`, where);
  }
  try {
    return { path, relative: relativePath, source: parseSource(text) };
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    const at = error.line === undefined ? "" : ` at line ${error.line}, column ${error.column}`;
    throw new BundleError(
      `points to ${relativePath}, which is not valid YAML or JSON${at}: ${error.message}`,
      where,
    );
  }
}

function checkPointers(files: SpecFile[], workspace: string): void {
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const file of files) {
    for (const occurrence of file.source.refs) {
      const target = locateRef(occurrence.ref, file.path, workspace);
      if (target.kind !== "file") continue;
      const document = byPath.get(target.path)?.source.value;
      if (!pointerMayExist(document, target.pointer)) {
        const where = {
          file: file.relative,
          ref: occurrence.ref,
          line: occurrence.line,
          column: occurrence.column,
        };
        throw new BundleError(
          `points to #${target.pointer} in ${workspaceRelative(workspace, target.path)}, which has no such node.`,
          where,
        );
      }
    }
  }
}

/** Reads a file whose real path (symbolic links followed) must stay inside the real workspace. */
export function readInsideWorkspace(realWorkspace: string): ReadText {
  return async (absolutePath) => {
    const real = await realpath(absolutePath);
    const fromWorkspace = relative(realWorkspace, real);
    if (fromWorkspace.startsWith("..") || fromWorkspace.startsWith(sep)) {
      throw new Error(`it is a symbolic link to ${real}, outside the workspace`);
    }
    return readFile(real, "utf8");
  };
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
