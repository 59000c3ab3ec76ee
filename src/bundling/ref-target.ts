import { dirname, extname, isAbsolute, relative, resolve } from "node:path";

export type RefTarget =
  | { kind: "internal" }
  | { kind: "file"; path: string; pointer: string }
  | { kind: "refused"; reason: string };

const bundlableExtensions = new Set([".yaml", ".yml", ".json"]);

/**
 * Where a `$ref` written in `containingFile` points, relative to that file (never to the working
 * directory), or why it cannot be bundled. Both paths are absolute.
 */
export function locateRef(ref: string, containingFile: string, workspace: string): RefTarget {
  if (ref.startsWith("#")) return { kind: "internal" };
  if (/^https?:\/\//i.test(ref)) {
    return {
      kind: "refused",
      reason:
        "is a remote reference, which is not fetched when bundling. Make the file part of the repository " +
        "and reference it by a relative path, or publish the spec from its URL with the `source: url` input " +
        "so that GitBook fetches it (and its references) itself.",
    };
  }
  if (isAbsolute(ref) || /^[a-z]:[\\/]/i.test(ref) || /^file:/i.test(ref) || ref.startsWith("\\")) {
    return {
      kind: "refused",
      reason: "is an absolute path. Write it relative to the file that contains it, e.g. ./schemas/pet.yaml.",
    };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    return { kind: "refused", reason: "uses a URI scheme that cannot be bundled. Use a relative file path." };
  }

  const hash = ref.indexOf("#");
  const [encodedPath, encodedPointer] = hash === -1 ? [ref, ""] : [ref.slice(0, hash), ref.slice(hash + 1)];
  let filePath: string;
  let pointer: string;
  try {
    filePath = decodeURIComponent(encodedPath);
    pointer = decodeURIComponent(encodedPointer);
  } catch {
    return { kind: "refused", reason: "contains an invalid %-escape." };
  }
  if (pointer !== "" && !pointer.startsWith("/")) {
    return {
      kind: "refused",
      reason:
        'has a fragment that is not a JSON pointer. Write it as "#/path/to/node", e.g. "#/components/schemas/Pet".',
    };
  }

  const target = resolve(dirname(containingFile), filePath);
  const fromWorkspace = relative(workspace, target);
  if (fromWorkspace.startsWith("..") || isAbsolute(fromWorkspace)) {
    return {
      kind: "refused",
      reason: `leads outside the workspace (${workspace}). Keep referenced files inside the repository.`,
    };
  }
  if (!bundlableExtensions.has(extname(target).toLowerCase())) {
    return {
      kind: "refused",
      reason:
        "points to a file that is not YAML or JSON (.yaml, .yml, .json). Only schema documents can be " +
        "bundled; put text such as Markdown descriptions inline in the `description` field.",
    };
  }
  return { kind: "file", path: target, pointer };
}
