import { describe, expect, it } from "vitest";
import { firstDifference, memoryLoader } from "./same-graph.ts";

const url = "file:///doc";
const differenceBetween = (a: unknown, b: unknown) =>
  firstDifference({ url, value: a }, memoryLoader(url, a), { url, value: b }, memoryLoader(url, b));

describe("the round-trip oracle", () => {
  it("treats a reference and its target alike", () => {
    expect(
      differenceBetween(
        { a: { $ref: "#/b" }, b: { type: "string" } },
        { a: { type: "string" }, b: { type: "string" } },
      ),
    ).toBeNull();
  });

  it("reports a changed leaf behind a reference", () => {
    expect(
      differenceBetween(
        { a: { $ref: "#/b" }, b: { type: "string" } },
        { a: { type: "integer" }, b: { type: "string" } },
      ),
    ).toBe('/a/type: "string" ≠ "integer"');
  });

  it("compares cycles of different shapes that unfold to the same tree", () => {
    const left = { node: { next: { $ref: "#/node" } } };
    const right = { node: { next: { next: { $ref: "#/node" } } } };
    expect(differenceBetween(left, right)).toBeNull();
  });

  it("reports a missing key", () => {
    expect(differenceBetween({ a: 1, b: 2 }, { a: 1 })).toContain("keys");
  });
});
