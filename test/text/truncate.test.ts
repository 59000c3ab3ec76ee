import { describe, expect, it } from "vitest";
import { truncate, truncateMiddle } from "../../src/core/text/truncate.ts";

/** No half of a surrogate pair stands alone. */
const wellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("truncate", () => {
  it("keeps a text that fits, and cuts one that does not with … counted in the length", () => {
    expect(truncate("abc", 3)).toBe("abc");
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(Array.from(truncate("x".repeat(500), 300))).toHaveLength(300);
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const emoji = "😀".repeat(10); // 20 UTF-16 units, 10 code points
    expect(truncate(emoji, 10)).toBe(emoji);
    const cut = truncate(emoji, 5);
    expect(cut).toBe("😀😀😀😀…");
    expect(wellFormed(cut)).toBe(true);
  });

  it("cuts in the middle when the end matters, keeping the start", () => {
    const place = `${"a.".repeat(100)}leaf`;
    const cut = truncateMiddle(place, 60);
    expect(Array.from(cut)).toHaveLength(60);
    expect(cut.startsWith("a.a.")).toBe(true);
    expect(cut.endsWith(".leaf")).toBe(true);
    expect(wellFormed(truncateMiddle("😀".repeat(100), 31))).toBe(true);
    expect(wellFormed("😀".slice(0, 1))).toBe(false);
  });
});
