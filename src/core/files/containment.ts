import path from "node:path";

/**
 * The one containment rule: whether `target` is `folder` itself or a path below it, both absolute and
 * already resolved (real paths where links matter). `..` segments, another drive or root are outside.
 */
export function isWithin(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
