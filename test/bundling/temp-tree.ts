import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary workspace; `remove()` deletes it. */
export interface TempTree {
  root: string;
  path(relative: string): string;
  write(files: Record<string, string>): void;
  remove(): void;
}

export function tempTree(copyFrom?: string): TempTree {
  const root = mkdtempSync(join(tmpdir(), "bundling-"));
  if (copyFrom) cpSync(copyFrom, root, { recursive: true });
  return {
    root,
    path: (relative) => join(root, relative),
    write(files) {
      for (const [relative, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, relative)), { recursive: true });
        writeFileSync(join(root, relative), text);
      }
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
