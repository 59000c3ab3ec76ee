/**
 * JSONPath's `match()` and `search()` patterns (I-Regexp, RFC 9485) run with `re2js`, in time linear in
 * the text whatever the pattern; one that is not I-Regexp is refused with {@link PatternError} rather than
 * matching nothing. Engine and measurements: docs/design/overlays.md, "Patterns: a linear-time engine".
 */
import { jsonpath } from "json-p3";
import { RE2JS } from "re2js";

/** A pattern that cannot be run: not I-Regexp, or more than the engine takes. */
export class PatternError extends Error {
  override readonly name = "PatternError";
}

/**
 * Most instructions a compiled pattern may have. The engine's time is linear in the text and in this
 * size: 2,000 instructions (`\p{L}{1000}` has 1,002, `(a|b|c){600}` about 1,800) keep a pass over a
 * 3,000-character text under a second (0.14 µs per instruction and character at worst); real filters
 * have tens.
 */
export const MAX_PATTERN_PROGRAM = 2_000;

/** A compiled pattern: whether it matches the whole text (`match`) or a part of it (`search`). */
export interface CompiledPattern {
  test(text: string): boolean;
  /** Instructions of the compiled program: the cost of one character of text. */
  readonly size: number;
}

/** json-p3's own I-Regexp check (RFC 9485's grammar), which throws on a pattern outside it. */
const iRegexpCheck = new jsonpath.functions.Match({ throwErrors: true, iRegexpCheck: true, cacheSize: 0 });

/** Compiled patterns, per function: a filter calls its function once per node it looks at. */
const CACHE_SIZE = 64;
const caches = { match: new Map<string, CompiledPattern>(), search: new Map<string, CompiledPattern>() };

/**
 * The compiled form of `pattern` for `match()` (the whole text) or `search()` (any part of it). Throws
 * {@link PatternError} for a pattern outside I-Regexp, or one larger than {@link MAX_PATTERN_PROGRAM}.
 * `compiled` is told the size of each pattern actually compiled (not found in the cache): its cost.
 */
export function compilePattern(
  pattern: string,
  fn: "match" | "search",
  compiled?: (size: number) => void,
): CompiledPattern {
  const cache = caches[fn];
  const cached = cache.get(pattern);
  if (cached) return cached;
  checkIRegexp(pattern);
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(pattern));
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, "");
    throw new PatternError(
      `the pattern ${JSON.stringify(pattern)} cannot be run by the linear-time engine (RE2): ${reason}${/repeat count/.test(reason) ? "; RE2 repeats at most 1,000 times" : ""}`,
    );
  }
  const size = re.programSize();
  compiled?.(size);
  if (size > MAX_PATTERN_PROGRAM)
    throw new PatternError(
      `the pattern ${JSON.stringify(pattern)} compiles to ${size.toLocaleString("en-US")} instructions, over the ${MAX_PATTERN_PROGRAM.toLocaleString("en-US")} a pattern may have (each character of text costs one pass over them); write it with smaller repetition counts`,
    );
  const result: CompiledPattern =
    fn === "match" ? { test: (text) => re.testExact(text), size } : { test: (text) => re.test(text), size };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, result);
  return result;
}

/** Throws {@link PatternError} when `pattern` is not I-Regexp, with what to write instead. */
function checkIRegexp(pattern: string): void {
  try {
    // Run on the empty text, only for the check that comes first: json-p3 then builds a JavaScript
    // RegExp, whose own complaints (it refuses `\-`, which I-Regexp allows) are not ours.
    iRegexpCheck.call("", pattern);
  } catch (error) {
    if ((error as Error).name !== "IRegexpError") return;
    throw new PatternError(
      `the pattern ${JSON.stringify(pattern)} is not an I-Regexp (RFC 9485), the pattern language of JSONPath's match() and search()${hint(pattern)}`,
    );
  }
}

/** What in a pattern is most likely outside I-Regexp, and what to write instead. */
function hint(pattern: string): string {
  if (/\(\?<?[=!]/.test(pattern)) return ": lookahead and lookbehind (`(?=`, `(?!`) are not part of it";
  if (/\\[1-9]|\\k</.test(pattern)) return ": backreferences (`\\1`) are not part of it";
  if (/\(\?/.test(pattern)) return ": `(?…)` groups and inline flags are not part of it; a group is `(…)`";
  if (/\\[dDwWsSbB]/.test(pattern))
    return ": `\\d`, `\\w`, `\\s` and `\\b` are not part of it; write a class such as `[0-9]` or `\\p{L}`";
  if (/[*+?}]\?/.test(pattern)) return ": lazy quantifiers (`*?`, `+?`) are not part of it";
  return "; see RFC 9485 §2 for its syntax";
}

/**
 * I-Regexp in RE2's syntax (RFC 9485 §5.4, "Multi-Language Regexp Engines"): a `.` outside a class is
 * any character but a line feed or a carriage return; everything else I-Regexp allows means the same in
 * RE2 (escapes, classes, `\p{…}` categories, `{n,m}`).
 */
export function toRe2Syntax(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "\\") {
      out += char + (pattern[i + 1] ?? "");
      i++;
    } else if (char === "." && !inClass) out += "[^\\n\\r]";
    else {
      if (char === "[") inClass = true;
      else if (char === "]") inClass = false;
      out += char;
    }
  }
  return out;
}
