import { LineCounter, parseDocument } from "yaml";
import { parseSource } from "../../src/core/documents/source-text.ts";
import type { ProcessError } from "../../src/core/service/types.ts";

/** Errors kept in `lastProcessedErrors`; `lastProcessedErrorCount` still counts all of them. */
export const MAX_REPORTED_ERRORS = 20;

export type ParseOutcome =
  | { ok: true; document: Record<string, unknown>; format: "json" | "yaml" }
  | { ok: false; errors: ProcessError[]; errorCount: number };

/**
 * Parses the text of a specification as the service does: JSON or YAML whose top level is a mapping
 * with an `openapi` string starting with "3." or `swagger: "2.0"`.
 */
export function parseSpecText(text: string): ParseOutcome {
  const parsed = parseJsonOrYaml(text);
  if (!parsed.ok) return parsed;
  const { document } = parsed;
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    return failure([
      {
        code: "NOT_OPENAPI",
        message: `The document is ${describe(document)}, not a mapping of OpenAPI fields`,
      },
    ]);
  }
  const fields = document as Record<string, unknown>;
  const { openapi, swagger } = fields;
  if (typeof openapi === "string" && openapi.startsWith("3.")) return { ...parsed, document: fields };
  if (swagger === "2.0") return { ...parsed, document: fields };
  if (openapi !== undefined) {
    return failure([
      {
        code: "UNSUPPORTED_VERSION",
        message: `openapi is ${JSON.stringify(openapi)}; expected "3.x" like "3.1.0"`,
      },
    ]);
  }
  if (swagger !== undefined) {
    return failure([
      {
        code: "UNSUPPORTED_VERSION",
        message: `swagger is ${JSON.stringify(swagger)}; only "2.0" is supported`,
      },
    ]);
  }
  return failure([
    {
      code: "NOT_OPENAPI",
      message:
        'The document has neither an "openapi" nor a "swagger" field; it is not an OpenAPI description',
    },
  ]);
}

type Parsed =
  | { ok: true; document: unknown; format: "json" | "yaml" }
  | { ok: false; errors: ProcessError[]; errorCount: number };

function parseJsonOrYaml(text: string): Parsed {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { ok: true, document: JSON.parse(text), format: "json" };
    } catch {
      // Not strict JSON; YAML (a superset) reports the problem with a line and column.
    }
  }
  try {
    // The fast reader first; `yaml` re-reads only a text that fails, for its errors' positions.
    return {
      ok: true,
      document: parseSource(text, false),
      format: trimmed.startsWith("{") ? "json" : "yaml",
    };
  } catch {
    // reported below, with positions
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    return failure(
      doc.errors.map((error) => {
        const where = lineCounter.linePos(error.pos[0]);
        const at = where ? ` at line ${where.line}, column ${where.col}` : "";
        return { code: "YAML_SYNTAX", message: `YAML error${at}: ${firstLine(error.message)}` };
      }),
    );
  }
  return {
    ok: true,
    document: doc.toJS({ maxAliasCount: 10_000 }),
    format: trimmed.startsWith("{") ? "json" : "yaml",
  };
}

function failure(errors: ProcessError[]): { ok: false; errors: ProcessError[]; errorCount: number } {
  return { ok: false, errors: errors.slice(0, MAX_REPORTED_ERRORS), errorCount: errors.length };
}

function firstLine(message: string): string {
  return message.split("\n", 1)[0] ?? message;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
