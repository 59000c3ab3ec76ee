/**
 * `--json` output is written in pieces (a review's result can be 10+ MB): the text is exactly what
 * `JSON.stringify(value, null, 2)` makes of it, and a secret anywhere in it is redacted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED } from "../../src/core/text/redact.ts";
import { type CliIo, Output } from "../../src/hosts/cli/output.ts";

function collecting(): { output: Output; writes: string[] } {
  const writes: string[] = [];
  const io: CliIo = {
    env: {},
    cwd: process.cwd(),
    stdout: { write: (text: string) => writes.push(text) },
    stderr: { write: () => true },
  };
  return { output: new Output(io), writes };
}

/** A review's result: specs, each with its lists of changes. */
const result = (changes: number, message: (i: number) => string) => ({
  base: { ref: "HEAD~1", commit: "a".repeat(40) },
  specs: [
    {
      file: "api/spec3.yaml",
      breaking: Array.from({ length: changes }, (_, i) => ({
        kind: "property-removed",
        operation: `GET /v1/things/${i}`,
        message: message(i),
        pointer: `#/paths/~1v1~1things~1${i}/get`,
        line: i + 1,
      })),
      other: [],
      allowed: [],
      omitted: 3,
    },
  ],
  removedSpecs: [],
});

describe("Output.json", () => {
  it("writes what JSON.stringify(value, null, 2) writes, whatever the value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.anything(), (value, other) => {
        for (const given of [value, { value, other, gone: undefined }, [value, other, undefined]]) {
          const { output, writes } = collecting();
          output.json(given);
          expect(writes.join("")).toBe(`${JSON.stringify(given, null, 2)}\n`);
        }
      }),
      { seed: 28, numRuns: 300 },
    );
  });

  it("writes a large result in pieces, the same text, each string whole", () => {
    const value = result(5000, (i) => `field_${i}: property removed`);
    const { output, writes } = collecting();
    output.json(value);
    expect(writes.join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(writes.length).toBeGreaterThan(10);
    expect(Math.max(...writes.map((piece) => piece.length))).toBeLessThan(70 * 1024);
    for (const piece of writes) expect(piece.split('"').length % 2).toBe(1);
  });

  it("redacts a secret in any piece", () => {
    const secret = "gb_api_0123456789abcdefSECRET";
    const value = result(5000, (i) => (i % 1000 === 999 ? `example token ${secret} removed` : "removed"));
    const { output, writes } = collecting();
    output.addSecret(secret);
    output.json(value);
    const text = writes.join("");
    expect(writes.length).toBeGreaterThan(10);
    expect(text).not.toContain("0123456789abcdef");
    expect(text.split(REDACTED)).toHaveLength(6);
  });
});
