import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createRedactor,
  FRAGMENT_LENGTH,
  REDACTED,
  Redactor,
  redactStrings,
} from "../../src/core/text/redact.ts";

const TOKEN = "gb_api_Zq8xYp3LmN7vR2tK9wB4cD6fH1jS5uE0";
const GITHUB_TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";

/** Every piece of `secret` of FRAGMENT_LENGTH characters that `text` still contains. */
function fragmentsIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + FRAGMENT_LENGTH <= secret.length; i++) {
    const piece = secret.slice(i, i + FRAGMENT_LENGTH);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

describe("Redactor", () => {
  const redact = createRedactor([TOKEN, GITHUB_TOKEN]);

  it("removes whole tokens, prefixes left by a cut and pieces from the middle", () => {
    expect(redact(`Bearer ${TOKEN} rejected`)).toBe(`Bearer ${REDACTED} rejected`);
    expect(redact(`the string "${TOKEN.slice(0, 12)}`)).toBe(`the string "${REDACTED}`);
    expect(redact(`…${TOKEN.slice(9, 25)}…`)).toBe(`…${REDACTED}…`);
    expect(redact(`${GITHUB_TOKEN.slice(-8)} and ${TOKEN}`)).toBe(`${REDACTED} and ${REDACTED}`);
  });

  it("matches ASCII letters in either case, as a host name comes back in lower case", () => {
    expect(redact(`https://${TOKEN.toLowerCase()}.example/`)).toBe(`https://${REDACTED}.example/`);
    expect(redact(GITHUB_TOKEN.toUpperCase().slice(5, 20))).toBe(REDACTED);
  });

  it("replaces a run of overlapping or touching pieces with one marker", () => {
    expect(redact(`${TOKEN}${TOKEN.slice(3, 20)}${GITHUB_TOKEN}`)).toBe(REDACTED);
  });

  it("leaves shorter pieces and other text alone, returning the same string when nothing matched", () => {
    const text = `gb_api_ ${TOKEN.slice(0, FRAGMENT_LENGTH - 1)} ghs_ done`;
    expect(redact(text)).toBe(text);
    expect(redact("")).toBe("");
  });

  it("removes whole occurrences of a short secret, and ignores empty or tiny ones", () => {
    expect(createRedactor(["hunter2"])("pw=hunter2;")).toBe(`pw=${REDACTED};`);
    expect(createRedactor(["", "ab"])("ab abc")).toBe("ab abc");
  });

  it("learns secrets added later", () => {
    const redactor = new Redactor();
    expect(redactor.redact(TOKEN)).toBe(TOKEN);
    redactor.add(TOKEN);
    expect(redactor.redact(`x${TOKEN}y`)).toBe(`x${REDACTED}y`);
  });

  it("switches to a marker no secret contains when the usual one could rebuild a piece", () => {
    for (const secret of ["abc]defghijk", "xxREDACTEDxx", "[0123456789"]) {
      const out = createRedactor([secret])(`${secret.slice(0, 9)}]defghijk ${secret}`);
      expect(out).not.toContain(REDACTED);
      expect(fragmentsIn(out, secret)).toEqual([]);
    }
  });

  it("redacts every string of plain data, keeping its shape and keys", () => {
    const data = { id: TOKEN, n: 3, list: [`a ${TOKEN.slice(5)}`, null], nested: { ok: true } };
    expect(redactStrings(data, redact)).toEqual({
      id: REDACTED,
      n: 3,
      list: [`a ${REDACTED}`, null],
      nested: { ok: true },
    });
  });
});

describe("Redactor, for any token and any text around it", () => {
  /** Tokens: arbitrary UTF-16 strings, and ASCII ones that use the marker's own characters. */
  const token = fc.oneof(
    fc.string({ unit: "binary", minLength: FRAGMENT_LENGTH, maxLength: 64 }),
    fc.string({
      unit: fc.constantFrom(..."[]REDACT*-_ab01".split("")),
      minLength: FRAGMENT_LENGTH,
      maxLength: 24,
    }),
  );
  /** A text made of random strings, the token, and pieces of it (cut prefixes, suffixes, middles). */
  const textAround = (secret: string) =>
    fc.array(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constant(secret),
        fc.integer({ min: FRAGMENT_LENGTH, max: secret.length }).map((n) => secret.slice(0, n)),
        fc.integer({ min: 0, max: secret.length - FRAGMENT_LENGTH }).map((n) => secret.slice(n)),
        fc
          .tuple(fc.nat(), fc.nat())
          .map(([a, b]) => secret.slice(a % secret.length, (a % secret.length) + FRAGMENT_LENGTH + (b % 8))),
      ),
      { maxLength: 8 },
    );

  it("leaves no piece of FRAGMENT_LENGTH characters of it in the output", () => {
    fc.assert(
      fc.property(
        token.chain((secret) => fc.tuple(fc.constant(secret), textAround(secret))),
        ([secret, parts]) => {
          const out = createRedactor([secret])(parts.join(""));
          expect(fragmentsIn(out, secret)).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("says a text contains a secret exactly when redacting would change it", () => {
    fc.assert(
      fc.property(
        token.chain((secret) => fc.tuple(fc.constant(secret), textAround(secret))),
        ([secret, parts]) => {
          const redactor = new Redactor([secret]);
          const text = parts.join("");
          expect(redactor.contains(text)).toBe(redactor.redact(text) !== text);
        },
      ),
      { numRuns: 1000 },
    );
    const redactor = new Redactor([TOKEN]);
    expect(redactor.contains(`pets-${TOKEN.slice(9, 17).toLowerCase()}`)).toBe(true);
    expect(redactor.contains(`pets-${TOKEN.slice(9, 16)}`)).toBe(false);
    expect(new Redactor().contains(TOKEN)).toBe(false);
  });

  it("is idempotent, and leaves a text that holds no piece of the token as it is", () => {
    fc.assert(
      fc.property(token, fc.string({ maxLength: 80 }), (secret, text) => {
        const redact = createRedactor([secret]);
        const once = redact(text);
        expect(redact(once)).toBe(once);
        if (fragmentsIn(text, secret).length === 0) expect(once).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("cleans a message cut to any length after redaction", () => {
    fc.assert(
      fc.property(token, fc.nat(200), fc.string({ maxLength: 30 }), (secret, cut, before) => {
        const shown = createRedactor([secret])(`${before}${secret} (more)`).slice(0, cut);
        expect(fragmentsIn(shown, secret)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
