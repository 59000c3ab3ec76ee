import fs from "node:fs/promises";
import path from "node:path";
import { formatOf } from "../documents/format.ts";
import { findObjectKey } from "../documents/json-keys.ts";
import { isWithin } from "../files/containment.ts";
import {
  FileTooLargeError,
  MAX_SPEC_BYTES,
  NotRegularFileError,
  withRegularFile,
} from "../files/read-regular.ts";
import { classifyDocument } from "./classify.ts";
import { declaresSpecKey, numericVersionOf } from "./declares.ts";
import { jsonCommentMiss, type NearMiss, wideEncodingMiss } from "./near-misses.ts";
import { parseText } from "./parse.ts";
import { mayDeclareSpec } from "./prefilter.ts";
import type { BrokenSpec, DiscoveredSpec, LoadedSpec, SpecFormat } from "./types.ts";

export type Inspection =
  /** `realPath`: the file's location with symbolic links resolved. */
  | { kind: "spec"; spec: DiscoveredSpec; realPath: string }
  | { kind: "broken"; broken: BrokenSpec }
  /** Read, and not an OpenAPI document. `suspicious`: probably meant to be one (logged as a warning). */
  | { kind: "not-spec"; path: string; reason: string; suspicious?: boolean }
  /** A symbolic link that leads out of the workspace: never read. */
  | { kind: "outside"; path: string; target: string }
  /**
   * Listed but not a readable file: deleted since, a broken link, a submodule or nested repository; `warn`
   * for what should not be there (a FIFO, socket or device).
   */
  | { kind: "unreadable"; path: string; reason: string; missing: boolean; warn?: boolean };

/**
 * Reads one candidate file and decides what it is. `realWorkspace` is the workspace with symbolic links
 * resolved; the file's real location must lie inside it.
 */
export async function inspectCandidate(
  realWorkspace: string,
  workspace: string,
  relativePath: string,
): Promise<Inspection> {
  const absolutePath = path.join(workspace, relativePath);
  let realPath: string;
  const format = formatOf(relativePath);
  let read: { size: number; text?: string; declared?: Declaration; wide?: NearMiss };
  try {
    realPath = await fs.realpath(absolutePath);
    if (!isInside(realWorkspace, realPath)) return { kind: "outside", path: relativePath, target: realPath };
    // Only a file that may declare a spec is decoded; a large one, whole only if its start does not tell.
    read = withRegularFile(realPath, { maxBytes: MAX_SPEC_BYTES, label: relativePath }, (bytes) => {
      const size = bytes.length;
      const wide = wideEncodingMiss(bytes);
      if (wide) return { size, wide };
      if (!mayDeclareSpec(bytes)) return { size };
      const declared = declaredByHead(bytes, format);
      return declared ? { size, declared } : { size, text: bytes.toString("utf8") };
    });
  } catch (error) {
    if (error instanceof NotRegularFileError && error.kind !== "a folder") {
      return { kind: "unreadable", path: relativePath, reason: error.message, missing: false, warn: true };
    }
    if (error instanceof FileTooLargeError) return tooLarge(relativePath, absolutePath, error);
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === "ENOENT" || code === "ENOTDIR";
    const reason = code === "EISDIR" ? "it is a folder (a submodule or nested repository)" : String(code);
    return {
      kind: "unreadable",
      path: relativePath,
      reason: missing ? "it does not exist" : reason,
      missing,
    };
  }
  const { text, size } = read;
  const names = { path: relativePath, absolutePath, realPath };
  if (read.wide) return nearMiss(names, read.wide);
  if (read.declared) return { kind: "spec", realPath, spec: { ...names, ...read.declared, bytes: size } };
  if (text === undefined) {
    return { kind: "not-spec", path: relativePath, reason: "it never mentions `openapi` or `swagger`" };
  }
  const declared = plainlyDeclaredSpec(text, format);
  if (declared) return { kind: "spec", realPath, spec: { ...names, ...declared, bytes: size } };
  const inspection = classifyText(text, names);
  if (inspection.kind !== "spec") return inspection;
  // Only what discovery needs is kept: memory follows the specs being worked on, not their number.
  const { text: _text, document: _document, field: _field, ...found } = inspection.spec;
  return { kind: "spec", realPath, spec: { ...found, bytes: size } };
}

type Declaration = Pick<DiscoveredSpec, "format" | "flavor" | "declaredVersion">;

/** Past this size a file is first judged by its start, where nearly every spec declares itself. */
const HEAD_BYTES = 64 * 1024;

/**
 * The declaration {@link plainlyDeclaredSpec} finds in the first {@link HEAD_BYTES} of a larger file,
 * when the rest cannot change it: the start alone is decoded, so discovery does not turn every large
 * file into a string. Undefined means: judge the whole text. The rest can change the verdict only by
 * holding the other version key (a YAML file declaring both, a JSON `swagger` file with an `openapi`
 * key), so any mention of it sends the file to the whole-text judgment.
 */
function declaredByHead(bytes: Buffer, format: SpecFormat): Declaration | undefined {
  if (bytes.length <= HEAD_BYTES) return undefined;
  const declared = plainlyDeclaredSpec(bytes.toString("utf8", 0, HEAD_BYTES), format);
  if (!declared) return undefined;
  const rivalMatters = format === "yaml" || declared.flavor === "swagger";
  const rival = declared.flavor === "openapi" ? "swagger" : "openapi";
  return rivalMatters && bytes.includes(rival) ? undefined : declared;
}

/**
 * A file whose top level plainly declares a spec, found without parsing it, so that discovery holds no
 * parsed document whatever the file's size. YAML: a line that starts with `openapi:` and a version string
 * `3.x.y` (quoted or not), or with `swagger: "2.0"` (quoted); such a line at the start of a line is a
 * key of the top-level mapping. JSON: a key of the outermost object, found by a scan that tracks strings
 * and nesting, whose value is the string `"3.…"` (or `"2.0"` for `swagger`, when no `openapi` appears).
 * Any other form (a number such as `openapi: 3.1`, flow style) is judged by parsing the file. A file
 * that does not parse is found when its turn comes and reported as a syntax error, as discovery would
 * have.
 */
function plainlyDeclaredSpec(
  text: string,
  format: "yaml" | "json",
): Pick<DiscoveredSpec, "format" | "flavor" | "declaredVersion"> | undefined {
  return format === "json" ? plainlyDeclaredJson(text) : plainlyDeclaredYaml(text);
}

function plainlyDeclaredYaml(
  text: string,
): Pick<DiscoveredSpec, "format" | "flavor" | "declaredVersion"> | undefined {
  const openapi =
    /^\uFEFF?(["']?)openapi\1[ \t]*:[ \t]*(["']?)(3\.\d+\.[0-9A-Za-z.+-]+)\2[ \t]*(?:#.*)?\r?$/m.exec(text);
  const swagger = /^\uFEFF?(["']?)swagger\1[ \t]*:[ \t]*(["'])(2\.0)\2[ \t]*(?:#.*)?\r?$/m.exec(text);
  if (openapi && swagger) return undefined;
  if (openapi) return { format: "yaml", flavor: "openapi", declaredVersion: openapi[3] as string };
  if (swagger) return { format: "yaml", flavor: "swagger", declaredVersion: "2.0" };
  return undefined;
}

const SPEC_KEYS: ReadonlySet<string> = new Set(["openapi", "swagger"]);

function plainlyDeclaredJson(
  text: string,
): Pick<DiscoveredSpec, "format" | "flavor" | "declaredVersion"> | undefined {
  const hit = findObjectKey(text, SPEC_KEYS, text.startsWith("\uFEFF") ? 1 : 0);
  if (!hit) return undefined;
  const value = /^"([^"\\]{1,64})"/.exec(text.slice(hit.valueOffset, hit.valueOffset + 80))?.[1];
  if (hit.key === "openapi" && value?.startsWith("3.")) {
    return { format: "json", flavor: "openapi", declaredVersion: value };
  }
  if (hit.key === "swagger" && value === "2.0" && !text.includes('"openapi"')) {
    return { format: "json", flavor: "swagger", declaredVersion: value };
  }
  return undefined;
}

type FileNames = Pick<LoadedSpec, "path" | "absolutePath" | "realPath">;

export type Classified =
  | { kind: "spec"; spec: Omit<LoadedSpec, "bytes">; realPath: string }
  | Extract<Inspection, { kind: "broken" | "not-spec" }>;

/** What a file's text is: a spec (parsed), a broken spec, or another kind of file. */
export function classifyText(text: string, names: FileNames): Classified {
  const { path: relativePath, absolutePath, realPath } = names;
  const format = formatOf(relativePath);
  const parsed = parseText(text, format);
  if (!parsed.ok) {
    const commented = format === "json" ? jsonCommentMiss(text) : undefined;
    if (commented) return nearMiss(names, commented);
    if (!declaresSpecKey(text)) {
      return {
        kind: "not-spec",
        path: relativePath,
        reason: `it cannot be parsed (${parsed.problem.message})`,
      };
    }
    return {
      kind: "broken",
      broken: { path: relativePath, absolutePath, problem: { file: relativePath, ...parsed.problem } },
    };
  }
  const classification = classifyDocument(parsed.value, (key, value) =>
    numericVersionOf(text, format, key, value),
  );
  if (classification.kind === "other") {
    return {
      kind: "not-spec",
      path: relativePath,
      reason: classification.reason,
      ...(classification.suspicious ? { suspicious: true } : {}),
    };
  }
  const { document, flavor, declaredVersion } = classification;
  return {
    kind: "spec",
    realPath,
    spec: {
      path: relativePath,
      absolutePath,
      realPath,
      format,
      text,
      document,
      field: (key) => document[key],
      flavor,
      declaredVersion,
    },
  };
}

function nearMiss(names: FileNames, miss: NearMiss): Extract<Inspection, { kind: "broken" }> {
  const { path: relativePath, absolutePath } = names;
  return {
    kind: "broken",
    broken: { path: relativePath, absolutePath, problem: { file: relativePath, ...miss } },
  };
}

/** A file over the size limit is a broken spec when its start declares one, and skipped otherwise. */
async function tooLarge(
  relativePath: string,
  absolutePath: string,
  error: FileTooLargeError,
): Promise<Inspection> {
  const handle = await fs.open(absolutePath, "r");
  let start: Buffer;
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    start = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (!mayDeclareSpec(start) || !declaresSpecKey(start.toString("utf8"))) {
    return { kind: "unreadable", path: relativePath, reason: error.message, missing: false };
  }
  return {
    kind: "broken",
    broken: {
      path: relativePath,
      absolutePath,
      problem: { file: relativePath, message: error.message },
      code: "FILE_TOO_LARGE",
    },
  };
}

/** Strictly below the workspace (not the workspace itself). */
function isInside(root: string, target: string): boolean {
  return path.relative(root, target) !== "" && isWithin(root, target);
}
