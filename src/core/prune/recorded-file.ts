import fs from "node:fs/promises";
import path from "node:path";
import { inspectFile } from "../discovery/index.ts";
import type { RecordedFile } from "./prune.ts";

/**
 * What became of the file a publish record names (the record comes from GitBook: its path is checked
 * before any file is looked at). `published` maps this run's files to their slugs.
 */
export async function recordedFileIn(
  workspace: string,
  recordedPath: string,
  published: ReadonlyMap<string, string>,
): Promise<RecordedFile> {
  if (!isPlainRelativePath(recordedPath)) {
    return { kind: "kept", why: "is not a plain path inside the repository, so it cannot be checked" };
  }
  const now = published.get(recordedPath);
  if (now !== undefined)
    return { kind: "gone", why: `its file ${recordedPath} is published as '${now}' now` };
  try {
    await fs.lstat(path.join(workspace, ...recordedPath.split("/")));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { kind: "gone", why: `its file ${recordedPath} was removed` };
    return { kind: "kept", why: `could not be looked at (${String(code)})` };
  }
  const inspection = await inspectFile(workspace, recordedPath);
  switch (inspection.kind) {
    case "spec":
      return {
        kind: "kept",
        why: "is still an OpenAPI document, but this run's files setting leaves it out",
      };
    case "broken":
      return { kind: "unrecognised", reason: inspection.broken.problem.message };
    case "not-spec":
    case "unreadable":
      return { kind: "unrecognised", reason: inspection.reason };
    case "outside":
      return { kind: "unrecognised", reason: "it is a link that leads out of the repository" };
  }
}

/** `a/b.yaml`: relative, `/`-separated, no empty, `.` or `..` segment, no backslash or control character. */
function isPlainRelativePath(candidate: string): boolean {
  if (candidate === "" || candidate.length > 4096 || candidate.includes("\\")) return false;
  if ([...candidate].some((char) => char.charCodeAt(0) < 0x20)) return false;
  return candidate.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}
