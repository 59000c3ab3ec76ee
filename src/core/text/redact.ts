/**
 * Removes secrets from text that came from outside, before it is shown or cut: the whole secret, and any
 * piece of {@link FRAGMENT_LENGTH}+ characters of it, in either ASCII case. Linear in the text (a rolling
 * hash over a k-gram set); why pieces: docs/design/log-safety.md.
 */

/** The shortest piece of a secret that is removed wherever it appears. */
export const FRAGMENT_LENGTH = 8;
/** Secrets shorter than this are not real tokens; redacting them would blank ordinary words. */
export const MIN_SECRET_LENGTH = 4;
export const REDACTED = "[REDACTED]";

export type Redact = (text: string) => string;

const BASE = 0x01000193;
/** BASE^(FRAGMENT_LENGTH - 1) modulo 2^32, to take the oldest character out of a rolling hash. */
const OUTGOING = power(BASE, FRAGMENT_LENGTH - 1);
const FILTER_SIZE = 1 << 16;

export class Redactor {
  readonly #secrets: string[] = [];
  /** Secrets shorter than FRAGMENT_LENGTH: only their whole occurrences are removed. */
  readonly #short: string[] = [];
  readonly #windows = new Set<string>();
  /** A one-bit-per-bucket filter of the windows' hashes: most windows of a text stop here. */
  readonly #filter = new Uint8Array(FILTER_SIZE);
  #marker = REDACTED;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Adds a secret; empty and very short values (under {@link MIN_SECRET_LENGTH}) are ignored. */
  add(secret: string): void {
    const folded = foldCase(secret);
    if (folded.length < MIN_SECRET_LENGTH || this.#secrets.includes(folded)) return;
    this.#secrets.push(folded);
    if (folded.length < FRAGMENT_LENGTH) this.#short.push(folded);
    for (let i = 0; i + FRAGMENT_LENGTH <= folded.length; i++) {
      const window = folded.slice(i, i + FRAGMENT_LENGTH);
      this.#windows.add(window);
      this.#filter[bucketOf(hashOf(window))] = 1;
    }
    this.#marker = markerFor(this.#secrets);
  }

  /**
   * Whether the text holds a secret, whole or a piece of {@link FRAGMENT_LENGTH}+ characters (as
   * {@link redact} would remove it): for refusing a setting whose value holds one.
   */
  contains(text: string): boolean {
    if (this.#secrets.length === 0 || text.length < MIN_SECRET_LENGTH) return false;
    return this.#coveredRanges(text).length > 0;
  }

  /** The text with every piece of every secret replaced; the same string when there is none. */
  readonly redact: Redact = (text) => {
    if (this.#secrets.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
    const covered = this.#coveredRanges(text);
    if (covered.length === 0) return text;
    let out = "";
    let at = 0;
    for (const [start, end] of covered) {
      out += `${text.slice(at, start)}${this.#marker}`;
      at = end;
    }
    return out + text.slice(at);
  };

  /** Start and end of every run of the text covered by a secret's piece (case folded), merged. */
  #coveredRanges(text: string): [number, number][] {
    const ranges: [number, number][] = [];
    const cover = (start: number, end: number) => {
      const last = ranges.at(-1);
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else ranges.push([start, end]);
    };
    const short: [number, number][] = [];
    const folded = this.#short.length > 0 ? foldCase(text) : text;
    for (const secret of this.#short) {
      for (let i = folded.indexOf(secret); i >= 0; i = folded.indexOf(secret, i + 1)) {
        short.push([i, i + secret.length]);
      }
    }
    short.sort((a, b) => a[0] - b[0]);
    let nextShort = 0;
    const coverShortBefore = (position: number) => {
      for (; nextShort < short.length && (short[nextShort]?.[0] ?? 0) <= position; nextShort++) {
        const [start, end] = short[nextShort] as [number, number];
        cover(start, end);
      }
    };
    if (this.#windows.size > 0 && text.length >= FRAGMENT_LENGTH) {
      const filter = this.#filter;
      let hash = 0;
      for (let i = 0; i < FRAGMENT_LENGTH; i++)
        hash = (Math.imul(hash, BASE) + foldCode(text.charCodeAt(i))) | 0;
      for (let start = 0; ; start++) {
        const end = start + FRAGMENT_LENGTH;
        if (filter[bucketOf(hash)] === 1 && this.#windows.has(foldCase(text.slice(start, end)))) {
          coverShortBefore(start);
          cover(start, end);
        }
        if (end >= text.length) break;
        const outgoing = Math.imul(foldCode(text.charCodeAt(start)), OUTGOING);
        hash = (Math.imul((hash - outgoing) | 0, BASE) + foldCode(text.charCodeAt(end))) | 0;
      }
    }
    coverShortBefore(text.length);
    return ranges;
  }
}

/** A redactor for a fixed set of secrets, as a function. */
export function createRedactor(secrets: Iterable<string>): Redact {
  return new Redactor(secrets).redact;
}

/** A copy of plain data (objects, arrays, strings) with every string value redacted; keys are kept. */
export function redactStrings<T>(value: T, redact: Redact): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, redact)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]),
    ) as T;
  }
  return value;
}

/**
 * `[REDACTED]`, unless a secret could be rebuilt from the marker and the text around it (a secret that
 * contains a bracket or the word): then three of a character that no secret contains, so that no
 * window across the marker can be a piece of a secret.
 */
function markerFor(secrets: readonly string[]): string {
  const marker = foldCase(REDACTED);
  const unsafe = secrets.some(
    (secret) => /[[\]]/.test(secret) || secret.includes("redacted") || marker.includes(secret),
  );
  if (!unsafe) return REDACTED;
  for (let code = 0x2a; ; code++) {
    const char = String.fromCharCode(code);
    if (/[\w\s]/.test(char)) continue;
    if (!secrets.some((secret) => secret.includes(char))) return char.repeat(3);
  }
}

/** ASCII letters in lower case; the length stays the same, so positions carry over. */
function foldCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text;
}

/** A character code with ASCII upper-case letters in lower case. */
function foldCode(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** The rolling hash of a (folded) window: the sum of its codes times BASE^(k-1-i), modulo 2^32. */
function hashOf(window: string): number {
  let hash = 0;
  for (let i = 0; i < window.length; i++) hash = (Math.imul(hash, BASE) + window.charCodeAt(i)) | 0;
  return hash;
}

function bucketOf(hash: number): number {
  return (hash ^ (hash >>> 16)) & (FILTER_SIZE - 1);
}

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}
