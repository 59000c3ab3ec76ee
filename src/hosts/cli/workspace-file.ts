import path from "node:path";
import { isWithin } from "../../core/files/containment.ts";
import { UsageError } from "./errors.ts";

/**
 * A file named on the command line (relative to `cwd`) as its path in the workspace, with `/`; one
 * outside the workspace is a usage error naming `argument`.
 */
export function workspacePath(workspace: string, cwd: string, file: string, argument: string): string {
  const absolute = path.resolve(cwd, file);
  if (!isWithin(workspace, absolute)) {
    throw new UsageError(argument, `${file} is outside the workspace ${workspace}; pass --workspace.`);
  }
  return path.relative(workspace, absolute).split(path.sep).join("/");
}
