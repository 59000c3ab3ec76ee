import { fileReferenceRule } from "../bundling/index.ts";
import { scanJsonObject, valueAt } from "../documents/json-scan.ts";
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
  try {
    return withRegularFile(spec.realPath, { maxBytes: MAX_SPEC_BYTES, label: spec.path }, (bytes, owned) =>
      loadBytes(bytes, spec, owned),
    );
  } catch (error) {
    const reason =
      error instanceof NotRegularFileError || error instanceof FileTooLargeError
        ? error.message
        : `${spec.path}: could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return { ok: false, code: "READ_ERROR", problem: { file: spec.path, message: reason } };
  }
}

/**
 * A discovered spec from its bytes as read (valid during the call only, unless `owned`). A strict JSON
 * spec is checked on them and decoded only if its text is asked for; anything else is decoded and parsed.
 */
export function loadBytes(bytes: Uint8Array, spec: DiscoveredSpec, owned = false): LoadOutcome {
  const checked = spec.format === "json" ? checkedJsonSpec(bytes, spec, owned) : undefined;
  if (checked) return { ok: true, spec: checked };
  const text = utf8Text(bytes);
  const inspection = classifyText(text, spec);
  if (inspection.kind === "spec") return { ok: true, spec: { ...inspection.spec, bytes: bytes.length } };
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
    problem: {
      file: spec.path,
      message: `${spec.path} changed while the run read it: ${inspection.reason}.`,
    },
  };
}

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];
/** The top-level fields checking a spec reads; any other is read from the whole document. */
const CHECKED_FIELDS = ["openapi", "swagger", "info"] as const;

/**
 * A JSON spec checked without being decoded or built: strict JSON (a scan of its bytes, as fast as
 * `JSON.parse` and without its memory), an object whose top level is a spec by the discovery rule. The
 * fields checking needs are parsed alone; the text is decoded (from a copy, as `bytes` only lasts the
 * call, unless they are `owned`: a large file's are read into a buffer of their own) when asked for,
 * the document built on first use. `referencesOtherFiles` is false when the scan
 * proves there is nothing to bundle. Undefined when the bytes are anything else (not strict JSON, or no
 * longer a spec): the caller parses the text to say what.
 */
export function checkedJsonSpec(
  bytes: Uint8Array,
  spec: DiscoveredSpec,
  owned = false,
): LoadedSpec | undefined {
  const from = UTF8_BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte) ? 3 : 0;
  const scan = scanJsonObject(bytes, from, fileReferenceRule);
  if (!scan) return undefined;
  const checked = new Map<string, unknown>();
  for (const key of CHECKED_FIELDS) {
    const range = scan.fields.get(key);
    if (range) checked.set(key, valueAt(bytes, range));
  }
  const classification = classifyDocument(
    { openapi: checked.get("openapi"), swagger: checked.get("swagger") },
    (key, value) => numericVersionOf(utf8Text(bytes), "json", key, value),
  );
  if (classification.kind !== "spec") return undefined;
  let copy: Uint8Array | undefined = owned ? bytes : Buffer.from(bytes);
  let text: string | undefined;
  let document: Record<string, unknown> | undefined;
  const textOf = (): string => {
    if (text === undefined) {
      text = utf8Text(copy as Uint8Array);
      copy = undefined;
    }
    return text;
  };
  const { path, absolutePath, realPath } = spec;
  const loaded: LoadedSpec = {
    path,
    absolutePath,
    realPath,
    format: "json",
    flavor: classification.flavor,
    declaredVersion: classification.declaredVersion,
    bytes: bytes.length,
    get text() {
      return textOf();
    },
    get document() {
      document ??= JSON.parse(from ? textOf().slice(1) : textOf()) as Record<string, unknown>;
      return document;
    },
    field: (key) => (isChecked(key) ? checked.get(key) : loaded.document[key]),
    ...(scan.mayReferenceOtherFiles ? {} : { referencesOtherFiles: false as const }),
  };
  return loaded;
}

function isChecked(key: string): boolean {
  return (CHECKED_FIELDS as readonly string[]).includes(key);
}

/** The bytes decoded as the file's text, byte order mark kept. */
function utf8Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
}
