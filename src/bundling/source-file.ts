import { isMap, isScalar, LineCounter, parseDocument, visit } from "yaml";

/** A `$ref` string as written, with its 1-based position in its file. */
export interface RefOccurrence {
  ref: string;
  line: number;
  column: number;
}

export interface ParsedSource {
  value: unknown;
  refs: RefOccurrence[];
}

export class SourceSyntaxError extends Error {
  override name = "SourceSyntaxError";
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, position?: { line: number; col: number }) {
    super(message);
    if (position) {
      this.line = position.line;
      this.column = position.col;
    }
  }
}

/** Parses YAML or JSON (JSON is YAML 1.2) and records where each `$ref` value sits. */
export function parseSource(text: string): ParsedSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError) {
    const position = firstError.linePos?.[0] ?? lineCounter.linePos(firstError.pos[0]);
    throw new SourceSyntaxError(firstError.message.split("\n")[0] ?? firstError.code, position);
  }
  const refs: RefOccurrence[] = [];
  visit(document, {
    Pair(_, pair, path) {
      const parent = path[path.length - 1];
      if (!isMap(parent) || !isScalar(pair.key) || pair.key.value !== "$ref") return;
      if (!isScalar(pair.value) || typeof pair.value.value !== "string") return;
      const { line, col } = lineCounter.linePos(pair.value.range?.[0] ?? 0);
      refs.push({ ref: pair.value.value, line, column: col });
    },
  });
  return { value: document.toJS({ maxAliasCount: 100 }), refs };
}
