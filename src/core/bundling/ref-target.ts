import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from "node:path";

export type RefTarget =
  /** `pointer` is undefined when the fragment is not a JSON pointer (e.g. a JSON Schema anchor). */
  | { kind: "internal"; pointer: string | undefined }
  /** `text`: not YAML or JSON (by its extension), inlined as a string. */
  | { kind: "file"; path: string; pointer: string; text: boolean }
  | { kind: "refused"; reason: string };

const dataExtensions = new Set([".yaml", ".yml", ".json"]);

/**
 * Where a `$ref` written in `containingFile` points, relative to that file (never to the working
 * directory), or why it cannot be bundled. Both paths are absolute.
 */
export function locateRef(ref: string, containingFile: string, workspace: string): RefTarget {
  if (ref.startsWith("#")) return { kind: "internal", pointer: internalPointer(ref) };
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

  const target = filePath === "" ? containingFile : resolve(dirname(containingFile), filePath);
  const fromWorkspace = relative(workspace, target);
  if (fromWorkspace === ".." || fromWorkspace.startsWith(`..${sep}`) || isAbsolute(fromWorkspace)) {
    return {
      kind: "refused",
      reason: `leads outside the workspace (${workspace}). Keep referenced files inside the repository.`,
    };
  }
  const text = !dataExtensions.has(extname(target).toLowerCase());
  if (text && pointer !== "") {
    return {
      kind: "refused",
      reason: `points into ${basename(target)}, which is not YAML or JSON: a text file can only be referenced whole.`,
    };
  }
  return { kind: "file", path: target, pointer, text };
}

function internalPointer(ref: string): string | undefined {
  try {
    const pointer = decodeURIComponent(ref.slice(1));
    return pointer === "" || pointer.startsWith("/") ? pointer : undefined;
  } catch {
    return undefined;
  }
}
