import { lineAndColumn } from "../documents/locate.ts";
import { parseSource, SourceSyntaxError } from "../documents/source-text.ts";
import type { SpecFormat } from "./types.ts";

export interface SyntaxProblem {
  line?: number;
  column?: number;
  message: string;
}

export type ParseOutcome = { ok: true; value: unknown } | { ok: false; problem: SyntaxProblem };

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * Parses a whole file. JSON goes through `JSON.parse` (fast on 10+ MB files); its error position is
 * turned into line and column only on failure. YAML goes through `js-yaml` (linear, 10–20× faster than
 * `yaml`'s parseDocument); `yaml` re-reads a file only when it fails, for the error's position.
 */
export function parseText(text: string, format: SpecFormat): ParseOutcome {
  const source = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  return format === "json" ? parseJson(source) : parseYaml(source);
}

function parseJson(text: string): ParseOutcome {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /at position (\d+)/.exec(message)?.[1];
    const cleanMessage = message.replace(/ in JSON at position \d+( \(line \d+ column \d+\))?/, "");
    const at = offset === undefined ? endOf(text) : lineAndColumn(text, Number(offset));
    return { ok: false, problem: { ...at, message: `JSON syntax error: ${cleanMessage}` } };
  }
}

function parseYaml(text: string): ParseOutcome {
  try {
    return { ok: true, value: parseSource(text, false) };
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    const message = `YAML syntax error: ${error.message.replace(/ at line \d+, column \d+:?$/, "")}`;
    return {
      ok: false,
      problem:
        error.line === undefined ? { message } : { line: error.line, column: error.column ?? 1, message },
    };
  }
}

function endOf(text: string): { line: number; column: number } {
  return lineAndColumn(text, text.length);
}
