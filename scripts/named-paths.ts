// The repository paths (`src/…`, `docs/…`, `test/…`, …) that src/'s files name in their comments and
// text, and those that do not exist; test/tools/named-paths.test.ts holds the tree to none.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

const NAMED = /(?<![\w./-])((?:src|docs|test|harness|bench|scripts|schema|examples)\/[\w.-]+(?:\/[\w.-]+)*)/g;
/** A path from the file's own folder (dot-slash or dot-dot-slash, then a .ts or .md file). */
const RELATIVE = /(?<![\w./-])(\.{1,2}\/[\w./-]+\.(?:ts|md))/g;
/** An import's specifier, which the type check already holds to an existing file. */
const IMPORT_LINE = /^\s*(?:import|export)\b.*\bfrom\s*["']|^\s*import\s*["']|\bimport\(/;

/** Each path named in `text` (relative ones resolved against `folder`), without a trailing dot. */
export function namedPaths(text: string, folder = "."): string[] {
  const named: string[] = [];
  for (const line of text.split("\n")) {
    for (const match of line.matchAll(NAMED)) named.push((match[1] as string).replace(/\.+$/, ""));
    if (IMPORT_LINE.test(line)) continue;
    for (const match of line.matchAll(RELATIVE)) named.push(posix.join(folder, match[1] as string));
  }
  return named;
}

/** A folder, or a file of a kind this repository holds (not another project's `src/Runner.Common/ActionCommand.cs`). */
const OURS = /(?:^|\/)[^./]+$|\.(?:ts|mts|mjs|js|md|json|ya?ml|gz)$/;

/** Where the files that name paths are read. */
export const ROOTS = ["src", "harness", "bench", "scripts"];

/** The named paths under `base` that do not exist, as `file: path`. */
export function stalePointers(base: string, roots: readonly string[] = ROOTS): string[] {
  const stale: string[] = [];
  for (const root of roots) {
    const files = readdirSync(join(base, root), { recursive: true, encoding: "utf8" }).filter((file) =>
      /\.(ts|md)$/.test(file),
    );
    for (const file of files) {
      const where = join(root, file).split("\\").join("/");
      for (const path of namedPaths(readFileSync(join(base, where), "utf8"), posix.dirname(where))) {
        if (OURS.test(path) && !existsSync(join(base, path))) stale.push(`${where}: ${path}`);
      }
    }
  }
  return stale;
}

if (import.meta.main) console.log(stalePointers(join(import.meta.dirname, "..")).join("\n"));
