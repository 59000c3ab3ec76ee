/**
 * Where keys are written in block-style YAML, found line by line without building a document: the
 * lines of a mapping entry or list item no path asks for are skipped by their indentation. What this
 * reading cannot be sure of (tabs in indentation, flow collections or aliases on a path, complex or
 * merge keys, several documents) makes it give up: the caller then parses the text with positions
 * (`yaml`'s parseDocument, about 1 MB/s: docs/design/code-quality.md).
 */

/** The key paths asked for, as a tree: each node is a key reached, and the offset where it is written. */
export interface WantedKeys {
  children: Map<string, WantedKeys>;
  at?: number;
}

interface Frame {
  /** The column of the collection's entries (of the dash, for a list). */
  indent: number;
  list: boolean;
  wanted: WantedKeys;
  index: number;
}

const GIVE_UP = Symbol("give up");

/** Marks the `at` of every wanted key met; false when the text is not one this reading is sure of. */
export function markBlockYamlKeys(text: string, root: WantedKeys): boolean {
  try {
    scan(text, root);
    return true;
  } catch (error) {
    if (error === GIVE_UP) return false;
    throw error;
  }
}

function scan(text: string, root: WantedKeys): void {
  const stack: Frame[] = [];
  /** A key or item whose value starts on a later line: the wanted tree of that value, and its column. */
  let opening: { indent: number; wanted: WantedKeys | undefined } | undefined = {
    indent: -1,
    wanted: root,
  };
  /** Lines deeper than this column belong to a value no path asks about (or to a scalar). */
  let skipDeeperThan = -1;
  let skipDashesAt = -1;
  let started = false;
  let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (offset < text.length) {
    let end = text.indexOf("\n", offset);
    if (end === -1) end = text.length;
    const lineStart = offset;
    offset = end + 1;
    let indent = 0;
    while (text.charCodeAt(lineStart + indent) === 0x20) indent++;
    const first = text[lineStart + indent];
    if (first === undefined || first === "\n" || first === "\r" || first === "#") continue;
    if (first === "\t") throw GIVE_UP;
    const line = text.slice(lineStart + indent, end).replace(/\r$/, "");
    if (indent === 0 && !started && (line.startsWith("%") || line.trimEnd() === "---")) continue;
    if (indent === 0 && (line.startsWith("---") || line.startsWith("..."))) throw GIVE_UP;
    started = true;
    const dash = line === "-" || line.startsWith("- ");
    if (indent > skipDeeperThan && skipDeeperThan >= 0) continue;
    if (indent === skipDashesAt && dash) continue;
    skipDeeperThan = -1;
    skipDashesAt = -1;
    if (opening) {
      const wanted = opening.wanted;
      if (wanted && (indent > opening.indent || (indent === opening.indent && dash)))
        stack.push({ indent, list: dash, wanted, index: 0 });
      opening = undefined;
    }
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      if (top.indent > indent || (top.indent === indent && top.list && !dash)) stack.pop();
      else break;
    }
    const frame = stack.at(-1);
    if (!frame || frame.indent !== indent || frame.list !== dash) throw GIVE_UP;
    entry(frame, line, lineStart + indent, indent);
  }

  /** One entry of `frame` (a mapping's key, a list's item), written at `at`, column `indent`. */
  function entry(frame: Frame, line: string, at: number, indent: number): void {
    if (frame.list) {
      const child = frame.wanted.children.get(String(frame.index++));
      if (child) child.at = at;
      const rest = line.slice(1).replace(/^ +/, "");
      const column = indent + (line.length - rest.length);
      if (!child || child.children.size === 0) {
        skip(indent);
        return;
      }
      if (rest === "" || rest.startsWith("#")) {
        opening = { indent, wanted: child };
        return;
      }
      if (rest.startsWith("- ") || rest === "-") throw GIVE_UP;
      const inner: Frame = { indent: column, list: false, wanted: child, index: 0 };
      if (keyOf(rest) === undefined) {
        skip(indent);
        return;
      }
      stack.push(inner);
      entry(inner, rest, at + (column - indent), column);
      return;
    }
    const key = keyOf(line);
    if (key === undefined) throw GIVE_UP;
    const child = frame.wanted.children.get(key.name);
    if (child) child.at = at;
    const value = key.value;
    if (value === "" || value.startsWith("#") || /^[&!][^\s]*\s*(#.*)?$/.test(value)) {
      // A value on the lines below (an anchor or a tag may come first).
      if (child && child.children.size > 0) opening = { indent, wanted: child };
      else skip(indent, true);
      return;
    }
    // An empty flow collection has no key to find; any other flow value, alias or tag is not read here.
    if (
      child &&
      child.children.size > 0 &&
      /^[[{*&!]/.test(value) &&
      !/^(?:\{\}|\[\])\s*(?:#.*)?$/.test(value)
    )
      throw GIVE_UP;
    skip(indent, false);
  }

  function skip(indent: number, dashes = false): void {
    skipDeeperThan = indent;
    if (dashes) skipDashesAt = indent;
  }
}

/** Plain scalars YAML (1.1 or 1.2) may read as something else than a string. */
const MAYBE_NOT_STRING = /^(?:[-+.~0-9]|(?:null|true|false|yes|no|on|off|y|n)$)/i;

/**
 * The string value of the mapping entry whose key is written at `at`, when it is a scalar this reading
 * is sure of: on the key's line, quoted, or plain and not a word or number YAML could read otherwise; or
 * a block scalar of one line. Null when the value is certainly not a string (nothing, or a mapping or
 * list below); undefined for anything else (a plain scalar that may go on below, a tag, an alias…): the
 * caller cannot be sure.
 */
export function blockYamlStringAt(text: string, at: number): string | null | undefined {
  const end = text.indexOf("\n", at);
  const line = text.slice(at, end < 0 ? text.length : end).replace(/\r$/, "");
  let value: string;
  try {
    const key = keyOf(line);
    if (!key) return undefined;
    value = key.value;
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  const quote = value[0];
  if (quote === "'" || quote === '"') {
    const close = closingQuote(value, quote);
    const rest = close < 0 ? "" : value.slice(close + 1).trim();
    if (close < 0 || (rest !== "" && !rest.startsWith("#"))) return undefined;
    if (quote === "'") return value.slice(1, close).replaceAll("''", "'");
    try {
      return JSON.parse(value.slice(0, close + 1)) as string;
    } catch {
      return undefined;
    }
  }
  const column = at - (text.lastIndexOf("\n", at - 1) + 1);
  const below = linesBelow(text, end);
  if (value === "" || value.startsWith("#")) {
    const next = below.next().value;
    if (!next) return null;
    const line = text.slice(next.start + next.indent, next.end).replace(/\r$/, "");
    if (line === "-" || line.startsWith("- ")) return next.indent >= column ? null : undefined;
    if (next.indent <= column) return null;
    try {
      return keyOf(line) ? null : undefined;
    } catch (error) {
      if (error === GIVE_UP) return undefined;
      throw error;
    }
  }
  const block = /^[>|]([-+]?)(?:\s+#.*)?$/.exec(value);
  if (block) {
    // A block scalar of one line (`$ref: >-` and the reference below): that line, then its chomping.
    const [first, second] = [below.next().value, below.next().value];
    if (!first || first.start !== end + 1 || first.indent <= column || block[1] === "+") return undefined;
    if ((second && second.indent > column) || text[first.start + first.indent] === "\t") return undefined;
    const line = text.slice(first.start + first.indent, first.end).replace(/\r$/, "");
    return block[1] === "-" ? line : `${line}\n`;
  }
  const plain = value.replace(/\s#.*$/, "").trimEnd();
  if (plain === "" || /^[-?:,[\]{}#&*!|>%@`]/.test(plain) || MAYBE_NOT_STRING.test(plain)) return undefined;
  // A plain scalar goes on over the lines below that are deeper than its key.
  const next = below.next().value;
  return next && next.indent > column && text[next.start + next.indent] !== "#" ? undefined : plain;
}

/** The lines after the line ending at `end` that are not blank: where each starts and ends, its indentation. */
function* linesBelow(text: string, end: number): Generator<{ start: number; end: number; indent: number }> {
  for (let start = end + 1; end >= 0 && start < text.length; start = end + 1) {
    end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 0x20) indent++;
    if (start + indent < stop && text[start + indent] !== "\r") yield { start, end: stop, indent };
  }
}

/** A mapping entry's key and what follows its colon; undefined when the line is not `key: …`. */
function keyOf(line: string): { name: string; value: string } | undefined {
  const first = line[0];
  if (first === '"' || first === "'") {
    const close = closingQuote(line, first);
    if (close < 0) throw GIVE_UP;
    const after = line.slice(close + 1).replace(/^ +/, "");
    if (!after.startsWith(":")) return undefined;
    const literal = line.slice(0, close + 1);
    let name: string;
    if (first === "'") name = literal.slice(1, -1).replaceAll("''", "'");
    else {
      try {
        name = JSON.parse(literal) as string;
      } catch {
        throw GIVE_UP;
      }
    }
    return { name, value: after.slice(1).trim() };
  }
  if (first === "?" || first === "[" || first === "{" || first === "&" || first === "*" || first === "!")
    throw GIVE_UP;
  const colon = line.search(/:( |$)/);
  if (colon < 0) return undefined;
  const name = line.slice(0, colon).trimEnd();
  if (name === "<<" || name.includes(" #")) throw GIVE_UP;
  return { name, value: line.slice(colon + 1).trim() };
}

function closingQuote(line: string, quote: string): number {
  for (let i = 1; i < line.length; i++) {
    if (quote === '"' && line[i] === "\\") i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}
