import { load } from "js-yaml";
import type { Document, LineCounter } from "yaml";
import { yamlPackage } from "./yaml-package.ts";
import { yamlSteps } from "./yaml-path.ts";

export class SourceSyntaxError extends Error {
  override name = "SourceSyntaxError";
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, position?: { line: number; column: number }) {
    super(message);
    if (position) {
      this.line = position.line;
      this.column = position.column;
    }
  }
}

/** Past this many nodes, aliases (`*name`) expanding a small file into a huge document are refused. */
const maxExpandedNodes = 1_000_000;

/**
 * Parses YAML or JSON into plain values, fast: `JSON.parse` for JSON, `js-yaml` (YAML 1.2 core schema,
 * duplicate keys refused) otherwise. Positions are not kept; `locateValue` finds them when a problem
 * needs one. Throws `SourceSyntaxError` with the position of the first syntax error.
 */
export function parseSource(text: string, json: boolean): unknown {
  if (json) {
    try {
      return JSON.parse(text);
    } catch {
      // Not strict JSON (comments, trailing commas, or YAML in a .json file): read it as YAML below.
    }
  }
  let value: unknown;
  try {
    value = load(text);
  } catch (error) {
    value = readByYaml(text, error);
  }
  if (text.includes("&")) checkAliases(value);
  return value ?? null;
}

/**
 * What `yaml` reads where `js-yaml` refused: the two disagree on a few forms (a flow mapping closed at
 * its key's indentation, in Docker's Engine API description), and GitBook's parser reads YAML with `yaml`,
 * so a text `yaml` accepts is a valid spec to GitBook. Its first error otherwise.
 */
function readByYaml(text: string, error: unknown): unknown {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true });
  if (document.errors.length === 0 && document.warnings.length === 0) {
    try {
      return document.toJS();
    } catch (aliases) {
      throw new SourceSyntaxError(aliases instanceof Error ? aliases.message : String(aliases));
    }
  }
  throw syntaxError(document, lineCounter, error);
}

/**
 * The position and message of a syntax error, in `yaml`'s words when it finds the error too (the same
 * messages as discovery), in `js-yaml`'s otherwise.
 */
function syntaxError(document: Document.Parsed, lineCounter: LineCounter, error: unknown): SourceSyntaxError {
  const first = document.errors[0];
  if (first) {
    const { line, col } = first.linePos?.[0] ?? lineCounter.linePos(first.pos[0]);
    return new SourceSyntaxError(first.message.split("\n")[0] ?? first.code, { line, column: col });
  }
  const mark =
    typeof error === "object" && error !== null && "mark" in error
      ? (error.mark as { line?: number; column?: number } | undefined)
      : undefined;
  const reason =
    typeof error === "object" && error !== null && "reason" in error && typeof error.reason === "string"
      ? error.reason
      : error instanceof Error
        ? error.message
        : String(error);
  return new SourceSyntaxError(
    reason,
    mark?.line === undefined ? undefined : { line: mark.line + 1, column: (mark.column ?? 0) + 1 },
  );
}

/**
 * YAML aliases make one object appear in several places: refuse an alias that contains itself and a
 * document whose aliases expand past `maxExpandedNodes` (a "billion laughs" file).
 */
function checkAliases(value: unknown): void {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (typeof node !== "object" || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) throw new SourceSyntaxError("an alias refers to a node that contains it");
    open.add(node);
    let total = 1;
    for (const child of Object.values(node)) {
      total += size(child);
      if (total > maxExpandedNodes) {
        throw new SourceSyntaxError(`aliases expand the document past ${maxExpandedNodes} nodes`);
      }
    }
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  size(value);
}

/**
 * Finds where values are written (1-based line and column of the value at a path of keys), by a second,
 * slower parse that keeps positions: only used to report problems. A path that is not found gives the
 * position of its deepest existing ancestor.
 */
export function valueLocator(text: string): (tokens: readonly string[]) => { line: number; column: number } {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  return (tokens) => {
    let offset = (document.contents as { range?: [number, number] } | null)?.range?.[0] ?? 0;
    for (const { node } of yamlSteps(document.contents, tokens)) {
      if (node === undefined || node === null) break;
      offset = (node as { range?: [number, number] }).range?.[0] ?? offset;
    }
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
}
