/**
 * The property of remove-internal (issue 26) over generated documents of every version: see
 * test/shaping/internal-documents.ts. A fixed seed and a bounded number of runs here;
 * `RUNS=20000 node scripts/remove-internal-property.ts` runs it longer, from other seeds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertRemoveInternal, generated } from "./internal-documents.ts";

describe("remove-internal, as a property", () => {
  it("leaves no marking, no name of a removed part, no dangling reference, and a valid document valid", () => {
    assertRemoveInternal({ seed: 26, numRuns: 400 });
  });

  it("generates what it claims: every version, valid inputs, markings with x- names among the parts", () => {
    const samples = fc.sample(generated, { seed: 26, numRuns: 400 });
    const byVersion = new Map<string, number>();
    for (const { document } of samples) {
      const version = String(document.openapi ?? document.swagger);
      byVersion.set(version, (byVersion.get(version) ?? 0) + 1);
    }
    expect([...byVersion.keys()].sort()).toEqual(["2.0", "3.0.3", "3.1.1", "3.2.0"]);
    expect(samples.filter((sample) => sample.marked).length).toBeGreaterThan(200);
    expect(samples.some((sample) => sample.parts.some((part) => part.name.startsWith("x-")))).toBe(true);
  });
});
