import { describe, expect, it } from "vitest";
import { resolveMode } from "../../src/core/plan/mode.ts";

const missing = (mode: string) => new Error(`${mode} needs a review`);
const open = { closed: false };
const closed = { closed: true };

describe("resolveMode", () => {
  it("previews an open review, cleans up a closed one and publishes without one in auto mode", () => {
    expect(resolveMode("auto", undefined, missing)).toBe("publish");
    expect(resolveMode("auto", open, missing)).toBe("preview");
    expect(resolveMode("auto", closed, missing)).toBe("cleanup");
  });

  it("keeps check and publish whatever the review", () => {
    for (const review of [undefined, open, closed]) {
      expect(resolveMode("check", review, missing)).toBe("check");
      expect(resolveMode("publish", review, missing)).toBe("publish");
    }
  });

  it("cleans up when asked, and never previews a closed review", () => {
    expect(resolveMode("cleanup", open, missing)).toBe("cleanup");
    expect(resolveMode("preview", open, missing)).toBe("preview");
    expect(resolveMode("preview", closed, missing)).toBe("cleanup");
  });

  it("throws the host's error for preview and cleanup without a review", () => {
    expect(() => resolveMode("preview", undefined, missing)).toThrow("preview needs a review");
    expect(() => resolveMode("cleanup", undefined, missing)).toThrow("cleanup needs a review");
  });
});
