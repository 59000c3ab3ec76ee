import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders never searched when discovering the whole workspace. */
export const EXCLUDED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/**
 * Every file under `root` (relative, `/`-separated) whose name passes `wanted`, skipping `.git` and
 * `node_modules`. Symbolic links are listed as files, never followed as folders (no cycles; a linked
 * folder inside the workspace is listed through its real location anyway).
 */
export async function walkFiles(root: string, wanted: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const pending: string[] = [""];
  while (pending.length > 0) {
    const batch = pending.splice(0, 32);
    const listings = await Promise.all(batch.map((dir) => readFolder(root, dir)));
    listings.forEach((entries, index) => {
      const dir = batch[index] as string;
      for (const entry of entries) {
        const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!EXCLUDED_FOLDERS.has(entry.name)) pending.push(relative);
        } else if ((entry.isFile() || entry.isSymbolicLink()) && wanted(entry.name)) {
          found.push(relative);
        }
      }
    });
  }
  return found;
}

async function readFolder(root: string, relative: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(path.join(root, relative), { withFileTypes: true });
  } catch {
    return []; // vanished or unreadable while walking: nothing to discover there
  }
}
