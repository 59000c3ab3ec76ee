import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../src/core/text/closest.ts";

describe("closest: the known name a typo meant", () => {
  it("counts insertions, deletions, substitutions and a swap of neighbours as one edit each", () => {
    expect(editDistance("slug-prefx", "slug-prefix")).toBe(1);
    expect(editDistance("slug-prefixx", "slug-prefix")).toBe(1);
    expect(editDistance("slug_prefix", "slug-prefix")).toBe(1);
    expect(editDistance("slgu-prefix", "slug-prefix")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("suggests the nearest name within two edits, ignoring case, and nothing for another word", () => {
    const known = ["organization", "slug-prefix", "slugs", "wait", "mode", "timeout"];
    expect(closest("slug-prefx", known)).toBe("slug-prefix");
    expect(closest("Slug-Prefix", known)).toBe("slug-prefix");
    expect(closest("organisation", known)).toBe("organization");
    expect(closest("wiat", known)).toBe("wait");
    expect(closest("slug", known)).toBe("slugs");
    expect(closest("prefix", known)).toBeUndefined();
    expect(closest("color", known)).toBeUndefined();
    expect(closest("moo", known)).toBeUndefined();
  });

  it("words the hint as a question, or gives none", () => {
    expect(didYouMean("wiat", ["wait"])).toBe("did you mean 'wait'?");
    expect(didYouMean("color", ["wait"])).toBeUndefined();
  });
});
