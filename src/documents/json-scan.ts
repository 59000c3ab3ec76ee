/** Where a value lies in the text: `text.slice(start, end)` is its JSON. */
export interface JsonRange {
  start: number;
  end: number;
}

/**
 * Checks that `text` from `from` on is one strict JSON value (RFC 8259, what `JSON.parse` accepts) whose
 * top level is an object, without building it, and returns where each of that object's values lies (a
 * repeated key: its last value, as `JSON.parse` keeps). Undefined when it is not: the caller then parses
 * the text to learn why. A multi-megabyte spec is checked in the time of its bytes, with no memory
 * beyond the nesting stack.
 */
export function scanJsonObject(text: string, from = 0): Map<string, JsonRange> | undefined {
  const scanner = new Scanner(text, from);
  scanner.skipSpace();
  if (text.charCodeAt(scanner.at) !== OPEN_BRACE) return undefined;
  const fields = new Map<string, JsonRange>();
  if (!scanner.value(fields)) return undefined;
  scanner.skipSpace();
  return scanner.at === text.length ? fields : undefined;
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

class Scanner {
  at: number;
  readonly #text: string;

  constructor(text: string, from: number) {
    this.#text = text;
    this.at = from;
  }

  skipSpace(): void {
    const text = this.#text;
    let at = this.at;
    for (;;) {
      const code = text.charCodeAt(at);
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
    if (!this.#scalarOrOpen(open)) return false;
    while (open.length > 0) {
      this.skipSpace();
      const inObject = open[open.length - 1] as boolean;
      const code = text.charCodeAt(this.at);
      if (code === (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
        this.at++;
        open.pop();
        afterMember = true;
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
      if (inObject) {
        const keyStart = this.at;
        if (!this.#string()) return false;
        if (open.length === 1) topKey = JSON.parse(text.slice(keyStart, this.at)) as string;
        this.skipSpace();
        if (text.charCodeAt(this.at) !== COLON) return false;
        this.at++;
        this.skipSpace();
      }
      if (open.length === 1) topStart = this.at;
      const depth = open.length;
      if (!this.#scalarOrOpen(open)) return false;
      afterMember = open.length === depth;
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
    const code = text.charCodeAt(this.at);
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
    if (!this.#text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  /** A string at `at`: no raw control characters, only JSON's escapes. */
  #string(): boolean {
    const text = this.#text;
    let at = this.at;
    if (text.charCodeAt(at) !== QUOTE) return false;
    at++;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) {
        this.at = at + 1;
        return true;
      }
      if (code === BACKSLASH) {
        const escaped = text.charCodeAt(at + 1);
        if (escaped === 0x75 /* u */) {
          if (!isHex(text.charCodeAt(at + 2)) || !isHex(text.charCodeAt(at + 3))) return false;
          if (!isHex(text.charCodeAt(at + 4)) || !isHex(text.charCodeAt(at + 5))) return false;
          at += 6;
          continue;
        }
        if (!isSimpleEscape(escaped)) return false;
        at += 2;
        continue;
      }
      // Control characters must be escaped; NaN is the end of the text.
      if (code < 0x20 || Number.isNaN(code)) return false;
      at++;
    }
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  #number(): boolean {
    const text = this.#text;
    let at = this.at;
    if (text.charCodeAt(at) === MINUS) at++;
    if (text.charCodeAt(at) === ZERO) at++;
    else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
    else return false;
    if (text.charCodeAt(at) === DOT) {
      at++;
      if (!isDigit(text.charCodeAt(at))) return false;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const exponent = text.charCodeAt(at);
    if (exponent === 0x65 || exponent === 0x45) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === PLUS || sign === MINUS) at++;
      if (!isDigit(text.charCodeAt(at))) return false;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    this.at = at;
    return true;
  }
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function isHex(code: number): boolean {
  return (code >= ZERO && code <= NINE) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. */
function isSimpleEscape(code: number): boolean {
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
