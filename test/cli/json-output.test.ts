/**
 * `--json` output is written in pieces (a review's result can be 10+ MB): the text is exactly what
 * `JSON.stringify(value, null, 2)` makes of it, and a secret anywhere in it is redacted.
 */

import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED } from "../../src/core/text/redact.ts";
import { type CliIo, Output } from "../../src/hosts/cli/output.ts";
import { processStream } from "../../src/hosts/cli/process-stream.ts";

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
  it("writes what JSON.stringify(value, null, 2) writes, whatever the value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.anything(), async (value, other) => {
        for (const given of [value, { value, other, gone: undefined }, [value, other, undefined]]) {
          const { output, writes } = collecting();
          await output.json(given);
          expect(writes.join("")).toBe(`${JSON.stringify(given, null, 2)}\n`);
        }
      }),
      { seed: 28, numRuns: 300 },
    );
  });

  it("writes a large result in pieces, the same text, each string whole", async () => {
    const value = result(5000, (i) => `field_${i}: property removed`);
    const { output, writes } = collecting();
    await output.json(value);
    expect(writes.join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(writes.length).toBeGreaterThan(10);
    expect(Math.max(...writes.map((piece) => piece.length))).toBeLessThan(70 * 1024);
    for (const piece of writes) expect(piece.split('"').length % 2).toBe(1);
  });

  it("redacts a secret in any piece", async () => {
    const secret = "gb_api_0123456789abcdefSECRET";
    const value = result(5000, (i) => (i % 1000 === 999 ? `example token ${secret} removed` : "removed"));
    const { output, writes } = collecting();
    output.addSecret(secret);
    await output.json(value);
    const text = writes.join("");
    expect(writes.length).toBeGreaterThan(10);
    expect(text).not.toContain("0123456789abcdef");
    expect(text.split(REDACTED)).toHaveLength(6);
  });

  it("writes the next piece only once stdout has taken the one before", async () => {
    const taken: string[] = [];
    const pending: (() => void)[] = [];
    const slow = new Writable({
      write(chunk: Buffer, _encoding, done) {
        taken.push(chunk.toString());
        pending.push(done);
      },
    });
    const output = new Output({
      env: {},
      cwd: process.cwd(),
      stdout: processStream(slow as unknown as NodeJS.WriteStream),
      stderr: { write: () => true },
    });
    const value = result(5000, () => "removed");
    const writing = output.json(value);
    await new Promise((resolve) => setImmediate(resolve));
    // One piece handed over, the rest not yet made.
    expect(slow.writableLength).toBeLessThan(70 * 1024);
    expect(JSON.stringify(value).length).toBeGreaterThan(500 * 1024);
    let finished = false;
    void writing.then(() => {
      finished = true;
    });
    while (!finished) {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const done of pending.splice(0)) done();
    expect(taken.length).toBeGreaterThan(10);
    expect(taken.join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });
});
