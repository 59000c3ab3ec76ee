import path from "node:path";
import { describe, expect, it } from "vitest";
import { isWithin } from "../../src/core/files/containment.ts";

describe("isWithin", () => {
  const root = path.resolve("/work/repo");
  it("holds for the folder and what is below it", () => {
    expect(isWithin(root, root)).toBe(true);
    expect(isWithin(root, path.join(root, "api", "openapi.yaml"))).toBe(true);
    expect(isWithin(root, path.join(root, "..repo-like-name"))).toBe(true);
  });
  it("refuses a parent, a sibling that shares the prefix, and another root", () => {
    expect(isWithin(root, path.dirname(root))).toBe(false);
    expect(isWithin(root, `${root}-other/file.yaml`)).toBe(false);
    expect(isWithin(root, path.join(root, "..", "etc", "passwd"))).toBe(false);
    expect(isWithin(root, path.resolve("/etc/passwd"))).toBe(false);
  });
});
