/**
 * match() and search() in overlay targets: RFC 9535's results (the JSONPath Compliance Test Suite's regex
 * cases, and I-Regexp's features against JavaScript's RegExp on texts where it is safe), run by the
 * linear-time engine; patterns outside I-Regexp or too large for the engine are refused with a reason.
 */
import { readFileSync } from "node:fs";
import { jsonpath } from "json-p3";
import { describe, expect, it } from "vitest";
import { applyOverlay, JSONPATH, parseOverlay } from "../../src/core/shaping/overlay.ts";
import { compilePattern, MAX_PATTERN_PROGRAM, PatternError } from "../../src/core/shaping/patterns.ts";

interface CtsTest {
  name: string;
  selector: string;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  invalid_selector?: boolean;
}

const CTS = JSON.parse(
  readFileSync(new URL("./fixtures/jsonpath-cts-regex/cts-regex.json", import.meta.url), "utf8"),
) as { tests: CtsTest[] };

describe("the JSONPath Compliance Test Suite's match() and search() cases", () => {
  it("holds all 56", () => {
    expect(CTS.tests).toHaveLength(56);
  });
  for (const test of CTS.tests) {
    it(test.name, () => {
      if (test.invalid_selector) {
        expect(() => JSONPATH.compile(test.selector)).toThrow();
        return;
      }
      const got = JSONPATH.query(test.selector, test.document as never).values();
      if (test.result) expect(got).toEqual(test.result);
      else expect(test.results?.some((result) => JSON.stringify(result) === JSON.stringify(got))).toBe(true);
    });
  }
});

/**
 * The reference: JavaScript's RegExp under RFC 9485's mapping, as json-p3 runs it (its `search()`; for
 * `match()` the pattern wrapped so that it must span the text), on texts where it cannot backtrack long.
 */
const regexpSearch = new jsonpath.functions.Search({ cacheSize: 0 });
const reference = (pattern: string, fn: "match" | "search") => (text: string) =>
  regexpSearch.call(text, fn === "match" ? `^(${pattern})$` : pattern);

const PATTERNS = [
  "a",
  ".",
  "a.b",
  "[a-c]+",
  "[^a-c]",
  "\\p{Lu}",
  "\\P{Lu}",
  "\\p{L}+",
  "\\p{Nd}",
  "[\\p{Lu}x]",
  "[^\\p{L}]",
  "\\p{Zs}",
  "\\p{S}",
  "\\p{Lo}",
  "\\p{Lt}",
  "\\p{Mn}",
  "\\p{C}",
  "a{2,3}",
  "a{2}",
  "a{2,}",
  "a{0}",
  "(ab|cd)+",
  "(a|b)*c",
  "x|",
  "|x",
  "()",
  "a*",
  "a?b",
  "\\^",
  "\\.",
  "\\\\",
  "\\[",
  "\\]",
  "\\{",
  "\\}",
  "\\|",
  "\\?",
  "\\*",
  "\\+",
  "\\(",
  "\\)",
  "[-a]",
  "[a-]",
  "[\\]]",
  "[\\[]",
  "[\\\\]",
  "[\\-]",
  "[a\\-z]",
  "[.]",
  "[\\n\\r]",
  "\\n",
  "\\t",
  "^ab",
  "ab$",
  "^a.*$",
  "(a+)+b",
  ".*.*.*Z",
];
const TEXTS = [
  "",
  "a",
  "b",
  "ab",
  "aab",
  "aaa",
  "abcd",
  "abab",
  "cd",
  "abc",
  "A",
  "Ж",
  "ж",
  "1",
  "١",
  "𐄁",
  "a𐄁b",
  "\n",
  "\r",
  "\u2028",
  " ",
  "\u00a0",
  "-",
  "^",
  ".",
  "\\",
  "[",
  "]",
  "{",
  "}",
  "|",
  "?",
  "*",
  "+",
  "(",
  ")",
  "$",
  "€",
  "ǅ",
  "\u0301",
  "\uE000",
  "x",
  "aaZ",
  "aaaa",
];

describe("I-Regexp with the linear-time engine", () => {
  it("agrees with JavaScript's RegExp (RFC 9485's mapping) on every pattern and text of a grid", () => {
    const disagreements: string[] = [];
    for (const pattern of PATTERNS)
      for (const fn of ["match", "search"] as const) {
        const compiled = compilePattern(pattern, fn);
        const expected = reference(pattern, fn);
        for (const text of TEXTS)
          if (compiled.test(text) !== expected(text))
            disagreements.push(`${fn}(${JSON.stringify(text)}, ${JSON.stringify(pattern)})`);
      }
    expect(disagreements).toEqual([]);
    // `\-` is I-Regexp; JavaScript's `u` mode refuses it outside a class, so it is checked on its own.
    expect(["-", "a", "\\-"].map((text) => compilePattern("\\-", "match").test(text))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("runs the patterns that hold JavaScript's RegExp for hours, on a 3,000-character text", () => {
    const text = "a".repeat(3000);
    expect(compilePattern(".*.*.*.*.*.*Z", "match").test(text)).toBe(false);
    expect(compilePattern("(a*){9}Z", "match").test(text)).toBe(false);
    expect(compilePattern("(a+)+$", "search").test(`${text}!`)).toBe(false);
    expect(compilePattern("(a|aa)*b", "search").test(text)).toBe(false);
    expect(compilePattern("(a*){9}", "match").test(text)).toBe(true);
  });

  it("refuses what I-Regexp has not, naming it and what to write instead", () => {
    const refused = (pattern: string) => {
      try {
        compilePattern(pattern, "search");
      } catch (error) {
        expect(error).toBeInstanceOf(PatternError);
        return (error as Error).message;
      }
      throw new Error(`${pattern} was accepted`);
    };
    expect(refused("(?=a)b")).toBe(
      'the pattern "(?=a)b" is not an I-Regexp (RFC 9485), the pattern language of JSONPath\'s match() and search(): lookahead and lookbehind (`(?=`, `(?!`) are not part of it',
    );
    expect(refused("(a)\\1")).toMatch(/not an I-Regexp .*: backreferences \(`\\1`\) are not part of it$/);
    expect(refused("\\d+")).toMatch(
      /: `\\d`, `\\w`, `\\s` and `\\b` are not part of it; write a class such as `\[0-9\]`/,
    );
    expect(refused("a*?")).toMatch(/: lazy quantifiers \(`\*\?`, `\+\?`\) are not part of it$/);
    expect(refused("(?i)a")).toMatch(/: `\(\?…\)` groups and inline flags are not part of it/);
    expect(refused("a{1001}")).toBe(
      'the pattern "a{1001}" cannot be run by the linear-time engine (RE2): invalid repeat count: `{1001}`; RE2 repeats at most 1,000 times',
    );
    expect(refused("[a-z]{1000}[a-z]{1000}[a-z]{100}")).toMatch(
      new RegExp(
        `compiles to 2,10\\d instructions, over the ${MAX_PATTERN_PROGRAM.toLocaleString("en-US")} a pattern may have`,
      ),
    );
  });

  it("refuses an overlay whose target's pattern is not I-Regexp, at the target's line, before anything runs", () => {
    const overlay = `overlay: 1.0.0
info: { title: t, version: '1' }
actions:
  - target: $.info
    update: { x-a: 1 }
  - target: "$.paths[?search(@.summary, '(?<=internal) ')]"
    remove: true
`;
    expect(() => parseOverlay(overlay, "overlays/public.yaml")).toThrow(
      /^overlays\/public\.yaml:6:13: the target of action 2: the pattern "\(\?<=internal\) " is not an I-Regexp \(RFC 9485\).*lookahead and lookbehind/,
    );
  });

  it("refuses a pattern taken from the document when it is not I-Regexp, at the action's line", () => {
    const parsed = parseOverlay(
      "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.values[?match(@, $.regex)]\n    remove: true\n",
      "o.yaml",
    );
    expect(() => applyOverlay({ regex: "(a)\\1", values: ["aa"] }, parsed, () => {})).toThrow(
      /^o\.yaml:4: action 1's target \$\.values\[\?match\(@, \$\.regex\)\]: the pattern "\(a\)\\\\1" is not an I-Regexp .*backreferences/,
    );
    const document = { regex: "a+", values: ["aa", "b"] };
    applyOverlay(document, parsed, () => {});
    expect(document.values).toEqual(["b"]);
  });
});
