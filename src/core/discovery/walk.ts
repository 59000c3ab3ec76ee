import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders never searched when discovering the whole workspace. */
export const EXCLUDED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export interface WalkRules {
  /** Whether a file (or link), by its relative path and name, is listed. */
  wanted: (relative: string, name: string) => boolean;
  /** Whether to go into a folder, by its relative path and name; by default all but EXCLUDED_FOLDERS. */
  enter?: (relative: string, name: string) => boolean;
  /** A folder that cannot be read fails the walk, instead of holding nothing. */
  strict?: boolean;
}

/**
 * Every file under `root` (relative, `/`-separated) the rules want. Symbolic links are listed as files,
 * never followed as folders (no cycles; a linked folder inside the workspace is listed through its real
 * location anyway).
 */
export async function walkFiles(root: string, rules: WalkRules): Promise<string[]> {
  const enter = rules.enter ?? ((_relative: string, name: string) => !EXCLUDED_FOLDERS.has(name));
  const found: string[] = [];
  const pending: string[] = [""];
  while (pending.length > 0) {
    const batch = pending.splice(0, 32);
    const listings = await Promise.all(batch.map((dir) => readFolder(root, dir, rules.strict === true)));
    listings.forEach((entries, index) => {
      const dir = batch[index] as string;
      for (const entry of entries) {
        const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (enter(relative, entry.name)) pending.push(relative);
        } else if ((entry.isFile() || entry.isSymbolicLink()) && rules.wanted(relative, entry.name)) {
          found.push(relative);
        }
      }
    });
  }
  return found;
}

async function readFolder(root: string, relative: string, strict: boolean): Promise<Dirent[]> {
  try {
    return await fs.readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if (strict) throw error;
    return []; // vanished or unreadable while walking: nothing to discover there
  }
}
