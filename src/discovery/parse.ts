import { parseDocument } from "yaml";
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
 * turned into line and column only on failure. YAML goes through `yaml`, whose errors carry positions.
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
  const document = parseDocument(text);
  const error = document.errors[0];
  if (error) {
    const start = error.linePos?.[0];
    const firstLine = error.message.split("\n")[0] ?? error.message;
    const message = `YAML syntax error: ${firstLine.replace(/ at line \d+, column \d+:?$/, "")}`;
    return { ok: false, problem: start ? { line: start.line, column: start.col, message } : { message } };
  }
  try {
    return { ok: true, value: document.toJS() };
  } catch (error) {
    // For example too many alias expansions (a "billion laughs" document).
    return { ok: false, problem: { line: 1, column: 1, message: `YAML error: ${(error as Error).message}` } };
  }
}

/** 1-based line and column of a UTF-16 offset into `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const bounded = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < bounded;
    index = text.indexOf("\n", index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: bounded - lineStart + 1 };
}

function endOf(text: string): { line: number; column: number } {
  return lineAndColumn(text, text.length);
}
