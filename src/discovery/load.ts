import {
  FileTooLargeError,
  MAX_SPEC_BYTES,
  NotRegularFileError,
  readRegularFile,
} from "../files/read-regular.ts";
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
  try {
    text = readRegularFile(spec.realPath, { maxBytes: MAX_SPEC_BYTES, label: spec.path }).toString("utf8");
  } catch (error) {
    const reason =
      error instanceof NotRegularFileError || error instanceof FileTooLargeError
        ? error.message
        : `${spec.path}: could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return { ok: false, code: "READ_ERROR", problem: { ...at, message: reason } };
  }
  const inspection = classifyText(text, spec);
  if (inspection.kind === "spec")
    return { ok: true, spec: { ...inspection.spec, bytes: Buffer.byteLength(text) } };
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
