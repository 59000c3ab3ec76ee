import { scanJsonObject } from "../documents/json-scan.ts";
import {
  FileTooLargeError,
  MAX_SPEC_BYTES,
  NotRegularFileError,
  withRegularFile,
} from "../files/read-regular.ts";
import { classifyDocument } from "./classify.ts";
import { numericVersionOf } from "./declares.ts";
import { classifyText } from "./inspect.ts";
import type { DiscoveredSpec, LoadedSpec, LocatedProblem } from "./types.ts";

export type LoadOutcome =
  | { ok: true; spec: LoadedSpec }
  /** SYNTAX_ERROR: it no longer parses; READ_ERROR: it can no longer be read, or is no longer a spec. */
  | { ok: false; code: "SYNTAX_ERROR" | "READ_ERROR"; problem: LocatedProblem };

/**
 * Reads and parses a discovered spec when its turn comes. The file is read at its real path, which
 * discovery checked lies inside the workspace; a file changed since discovery is judged as it is now.
 */
export function loadSpec(spec: DiscoveredSpec): LoadOutcome {
  const at = { file: spec.path };
  let text: string;
  let bytes: number;
  try {
    ({ text, bytes } = withRegularFile(
      spec.realPath,
      { maxBytes: MAX_SPEC_BYTES, label: spec.path },
      (read) => ({
        text: read.toString("utf8"),
        bytes: read.length,
      }),
    ));
  } catch (error) {
    const reason =
      error instanceof NotRegularFileError || error instanceof FileTooLargeError
        ? error.message
        : `${spec.path}: could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return { ok: false, code: "READ_ERROR", problem: { ...at, message: reason } };
  }
  const checked = spec.format === "json" ? checkedJsonSpec(text, spec, bytes) : undefined;
  if (checked) return { ok: true, spec: checked };
  const inspection = classifyText(text, spec);
  if (inspection.kind === "spec") return { ok: true, spec: { ...inspection.spec, bytes } };
  if (inspection.kind === "broken") {
    const { problem } = inspection.broken;
    return {
      ok: false,
      code: "SYNTAX_ERROR",
      problem: { ...problem, message: `${spec.path}: ${problem.message}` },
    };
  }
  return {
    ok: false,
    code: "READ_ERROR",
    problem: { ...at, message: `${spec.path} changed while the run read it: ${inspection.reason}.` },
  };
}

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * A JSON spec checked without being built: strict JSON (a scan, as fast as `JSON.parse` and without
 * its memory), an object whose top level is a spec by the discovery rule. Its fields are parsed one by
 * one as asked for, its document only on first use. Undefined when the text is anything else (not
 * strict JSON, or no longer a spec): the caller parses it to say what.
 */
export function checkedJsonSpec(
  text: string,
  spec: DiscoveredSpec,
  bytes = Buffer.byteLength(text),
): LoadedSpec | undefined {
  const from = text.startsWith(BYTE_ORDER_MARK) ? 1 : 0;
  const ranges = scanJsonObject(text, from);
  if (!ranges) return undefined;
  const fieldValue = (key: string): unknown => {
    const range = ranges.get(key);
    return range && JSON.parse(text.slice(range.start, range.end));
  };
  const classification = classifyDocument(
    { openapi: fieldValue("openapi"), swagger: fieldValue("swagger") },
    (key, value) => numericVersionOf(text, "json", key, value),
  );
  if (classification.kind !== "spec") return undefined;
  let document: Record<string, unknown> | undefined;
  const { path, absolutePath, realPath } = spec;
  return {
    path,
    absolutePath,
    realPath,
    format: "json",
    flavor: classification.flavor,
    declaredVersion: classification.declaredVersion,
    bytes,
    text,
    get document() {
      document ??= JSON.parse(from ? text.slice(from) : text) as Record<string, unknown>;
      return document;
    },
    field: (key) => (document ? document[key] : fieldValue(key)),
  };
}
