import { describe, expect, it } from "vitest";
import { SlugInputError } from "../../src/core/slugs/errors.ts";
import {
  isPreviewSlugOf,
  livePreviewFormFix,
  PREVIEW_SLUG,
  previewSlug,
  refusePreviewFormLiveSlugs,
} from "../../src/core/slugs/preview.ts";

describe("live slugs of the preview form", () => {
  it("are every slug a preview could have: previews of both kinds match, their fixes do not", () => {
    for (const base of ["api", "pay-v2", "x".repeat(120)]) {
      for (const [number, kind] of [
        [7, "pull-request"],
        [12345, "merge-request"],
      ] as const) {
        const preview = previewSlug(base, number, kind);
        expect(isPreviewSlugOf(preview, number, kind)).toBe(true);
        expect(PREVIEW_SLUG.test(preview)).toBe(true);
        expect(PREVIEW_SLUG.test(livePreviewFormFix(preview))).toBe(false);
      }
    }
    expect(livePreviewFormFix("api-pr-7")).toBe("api-pr7");
    expect(livePreviewFormFix("api-mr-12")).toBe("api-mr12");
    expect(PREVIEW_SLUG.test("pr-7")).toBe(false);
    expect(PREVIEW_SLUG.test("api-pr7")).toBe(false);
  });

  it("are refused all at once, each with its file, its source and a name to use", () => {
    const refuse = () =>
      refusePreviewFormLiveSlugs([
        { slug: "api", file: "api.yaml", source: "derived from the file's path" },
        { slug: "api-pr-7", file: "other.yaml", source: "set by the 'slugs' input" },
        { slug: "pay-mr-3", file: "pay.yaml", source: "derived from the file's path" },
      ]);
    expect(refuse).toThrow(SlugInputError);
    expect(refuse).toThrow(
      /"api-pr-7" of "other\.yaml" \(set by the 'slugs' input\): use "api-pr7" or another name; "pay-mr-3" of "pay\.yaml" \(derived from the file's path\): use "pay-mr3"/,
    );
    expect(() => refusePreviewFormLiveSlugs([{ slug: "api-pr7", file: "a", source: "s" }])).not.toThrow();
  });
});
