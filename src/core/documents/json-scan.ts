/** Where a value lies in the bytes: `bytes.subarray(start, end)` is its JSON. */
export interface JsonRange {
  start: number;
  end: number;
}

export interface JsonObjectScan {
  /** Where each of the outermost object's values lies (a repeated key: its last value). */
  fields: Map<string, JsonRange>;
  /**
   * False only when no reference can lead to another file: no key `$ref` (however written) whose value
   * is a string the rule calls a file, and no key `mapping` holding such a value. Where such a key sits
   * is not looked at (literal data included): true means "walk the document to know".
   */
  mayReferenceOtherFiles: boolean;
}

/** Which written references lead to another file: the bundler's rule, applied by the scan. */
export interface ReferenceRule {
  /** A `$ref` string that names another file. */
  isFileRef(ref: string): boolean;
  /** A discriminator mapping value that names another file. */
  isFileMappingValue(value: string): boolean;
}

/**
 * Checks that the UTF-8 `bytes` from `from` on are one strict JSON value (RFC 8259, what `JSON.parse`
 * accepts once decoded) whose top level is an object, without decoding or building it, and says where
 * each top-level value lies (a repeated key: its last value, as `JSON.parse` keeps). Undefined when it
 * is not: the caller then parses the text to learn why. A multi-megabyte spec is checked in the time of
 * its bytes, with no memory beyond the nesting stack.
 */
export function scanJsonObject(
  bytes: Uint8Array,
  from: number,
  rule: ReferenceRule,
): JsonObjectScan | undefined {
  const scanner = new Scanner(bytes, from, rule);
  scanner.skipSpace();
  if (bytes[scanner.at] !== OPEN_BRACE) return undefined;
  const fields = new Map<string, JsonRange>();
  if (!scanner.value(fields)) return undefined;
  scanner.skipSpace();
  if (scanner.at !== bytes.length) return undefined;
  return { fields, mayReferenceOtherFiles: scanner.mayReferenceOtherFiles };
}

const decoder = new TextDecoder();

/** The value whose JSON lies at `range` of `bytes`, parsed. */
export function valueAt(bytes: Uint8Array, range: JsonRange): unknown {
  return JSON.parse(decoder.decode(bytes.subarray(range.start, range.end)));
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const REF_KEY = new TextEncoder().encode('"$ref"');
const MAPPING_KEY = new TextEncoder().encode('"mapping"');
const HASH = 0x23;

class Scanner {
  at: number;
  mayReferenceOtherFiles = false;
  readonly #text: Uint8Array;
  readonly #rule: ReferenceRule;

  constructor(text: Uint8Array, from: number, rule: ReferenceRule) {
    this.#text = text;
    this.at = from;
    this.#rule = rule;
  }

  /** The JSON string between `start` and `end`, decoded. */
  #stringAt(start: number, end: number): string {
    return valueAt(this.#text, { start, end }) as string;
  }

  /** Which reference key the raw key between `start` and `end` spells, escapes decoded. */
  #referenceKey(start: number, end: number): "$ref" | "mapping" | undefined {
    const text = this.#text;
    if (sameBytes(text, start, end, REF_KEY)) return "$ref";
    if (sameBytes(text, start, end, MAPPING_KEY)) return "mapping";
    if (!hasByte(text, start, end, BACKSLASH)) return undefined;
    const key = this.#stringAt(start, end);
    return key === "$ref" || key === "mapping" ? key : undefined;
  }

  skipSpace(): void {
    const text = this.#text;
    let at = this.at;
    for (;;) {
      const code = text[at];
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) at++;
      else break;
    }
    this.at = at;
  }

  /**
   * One value at `at`, iteratively (nesting depth is bounded by memory, not the call stack). The
   * outermost object's keys and value ranges go into `fields`.
   */
  value(fields: Map<string, JsonRange>): boolean {
    const text = this.#text;
    /** Open containers: true for an object, false for an array. */
    const open: boolean[] = [];
    /** A member was just read: a `,` or the end comes next (else a first member or the end). */
    let afterMember = false;
    let topKey: string | undefined;
    let topStart = 0;
    /** Depth of the `mapping` object being read, whose string values are looked at; 0 outside one. */
    let mappingDepth = 0;
    if (!this.#scalarOrOpen(open)) return false;
    while (open.length > 0) {
      this.skipSpace();
      const inObject = open[open.length - 1] as boolean;
      const code = text[this.at];
      if (code === (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
        this.at++;
        open.pop();
        afterMember = true;
        if (open.length < mappingDepth) mappingDepth = 0;
        if (open.length === 1 && topKey !== undefined) {
          fields.set(topKey, { start: topStart, end: this.at });
          topKey = undefined;
        }
        continue;
      }
      if (afterMember) {
        if (code !== COMMA) return false;
        this.at++;
        this.skipSpace();
      }
      let referenceKey: "$ref" | "mapping" | undefined;
      if (inObject) {
        const keyStart = this.at;
        if (!this.#string()) return false;
        if (open.length === 1) topKey = this.#stringAt(keyStart, this.at);
        if (!this.mayReferenceOtherFiles) referenceKey = this.#referenceKey(keyStart, this.at);
        this.skipSpace();
        if (text[this.at] !== COLON) return false;
        this.at++;
        this.skipSpace();
      }
      if (open.length === 1) topStart = this.at;
      const depth = open.length;
      const valueStart = this.at;
      if (!this.#scalarOrOpen(open)) return false;
      afterMember = open.length === depth;
      if (!this.mayReferenceOtherFiles) {
        const isString = text[valueStart] === QUOTE;
        if (referenceKey === "$ref" && isString && text[valueStart + 1] !== HASH) {
          if (this.#rule.isFileRef(this.#stringAt(valueStart, this.at))) this.mayReferenceOtherFiles = true;
        } else if (referenceKey === "mapping" && !afterMember) {
          // A mapping within a mapping is not followed: walk the document to know.
          if (mappingDepth > 0) this.mayReferenceOtherFiles = true;
          mappingDepth = open.length;
        } else if (mappingDepth > 0 && depth === mappingDepth && inObject && isString) {
          if (this.#rule.isFileMappingValue(this.#stringAt(valueStart, this.at))) {
            this.mayReferenceOtherFiles = true;
          }
        }
      }
      if (open.length === depth && depth === 1 && topKey !== undefined) {
        fields.set(topKey, { start: topStart, end: this.at });
        topKey = undefined;
      }
    }
    return true;
  }

  /** A scalar, consumed whole, or the opening of a container, pushed on `open`. */
  #scalarOrOpen(open: boolean[]): boolean {
    const text = this.#text;
    const code = text[this.at] ?? -1;
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      open.push(code === OPEN_BRACE);
      this.at++;
      return true;
    }
    if (code === QUOTE) return this.#string();
    if (code === MINUS || (code >= ZERO && code <= NINE)) return this.#number();
    return this.#word("true") || this.#word("false") || this.#word("null");
  }

  #word(word: string): boolean {
    const text = this.#text;
    for (let index = 0; index < word.length; index++) {
      if (text[this.at + index] !== word.charCodeAt(index)) return false;
    }
    this.at += word.length;
    return true;
  }

  /** A string at `at`: no raw control characters, only JSON's escapes. */
  #string(): boolean {
    const text = this.#text;
    let at = this.at;
    if (text[at] !== QUOTE) return false;
    at++;
    for (;;) {
      const code = text[at];
      if (code === QUOTE) {
        this.at = at + 1;
        return true;
      }
      if (code === BACKSLASH) {
        const escaped = text[at + 1];
        if (escaped === 0x75 /* u */) {
          if (!isHex(text[at + 2]) || !isHex(text[at + 3])) return false;
          if (!isHex(text[at + 4]) || !isHex(text[at + 5])) return false;
          at += 6;
          continue;
        }
        if (!isSimpleEscape(escaped)) return false;
        at += 2;
        continue;
      }
      // Control characters must be escaped; undefined is the end of the text. Other bytes, UTF-8
      // sequences included, are the string's own (invalid UTF-8 decodes to U+FFFD, valid in a string).
      if (code === undefined || code < 0x20) return false;
      at++;
    }
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  #number(): boolean {
    const text = this.#text;
    let at = this.at;
    if (text[at] === MINUS) at++;
    if (text[at] === ZERO) at++;
    else if (isDigit(text[at])) while (isDigit(text[at])) at++;
    else return false;
    if (text[at] === DOT) {
      at++;
      if (!isDigit(text[at])) return false;
      while (isDigit(text[at])) at++;
    }
    const exponent = text[at];
    if (exponent === 0x65 || exponent === 0x45) {
      at++;
      const sign = text[at];
      if (sign === PLUS || sign === MINUS) at++;
      if (!isDigit(text[at])) return false;
      while (isDigit(text[at])) at++;
    }
    this.at = at;
    return true;
  }
}

function isDigit(code: number | undefined): boolean {
  return code !== undefined && code >= ZERO && code <= NINE;
}

function isHex(code: number | undefined): boolean {
  if (code === undefined) return false;
  return (code >= ZERO && code <= NINE) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. */
function isSimpleEscape(code: number | undefined): boolean {
  return (
    code === QUOTE ||
    code === BACKSLASH ||
    code === 0x2f ||
    code === 0x62 ||
    code === 0x66 ||
    code === 0x6e ||
    code === 0x72 ||
    code === 0x74
  );
}

function sameBytes(text: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let index = 0; index < expected.length; index++) {
    if (text[start + index] !== expected[index]) return false;
  }
  return true;
}

function hasByte(text: Uint8Array, start: number, end: number, byte: number): boolean {
  for (let index = start; index < end; index++) if (text[index] === byte) return true;
  return false;
}
