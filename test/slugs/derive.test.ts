import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveSlug, slugify } from "../../src/core/slugs/derive.ts";
import { previewSlug } from "../../src/core/slugs/preview.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../src/core/slugs/rule.ts";

const widgets = { repositoryName: "widgets" };
/** The Slugs table of the publishing guide, whose examples the first test derives. */
const GUIDE = readFileSync(new URL("../../docs/publishing.md", import.meta.url), "utf8");

describe("deriveSlug", () => {
  it.each([
    ["openapi.yaml", "widgets"],
    ["api/petstore.yaml", "api-petstore"],
    ["services/payments/openapi.json", "services-payments"],
    ["services/Payments_V2/OpenAPI.yml", "services-payments-v2"],
    ["docs/Café API/spec.yaml", "docs-cafe-api"],
    ["specs/v1.2/billing.openapi.yaml", "specs-v1-2-billing"],
  ])("derives %s → %s (docs/publishing.md examples)", (file, slug) => {
    expect(deriveSlug(file, widgets)).toBe(slug);
    expect(GUIDE).toContain(`| \`${file}\` | \`${slug}\` |`);
  });

  it("drops a trailing .swagger and generic base names in any case", () => {
    expect(deriveSlug("legacy/store.swagger.json", widgets)).toBe("legacy-store");
    expect(deriveSlug("a/SCHEMA.yaml", widgets)).toBe("a");
    expect(deriveSlug("a/Index.json", widgets)).toBe("a");
    expect(deriveSlug("api.yaml", widgets)).toBe("widgets");
    expect(deriveSlug("spec.openapi.yaml", widgets)).toBe("widgets");
  });

  it("keeps generic names that are folders, not the base name", () => {
    expect(deriveSlug("api/v1/openapi.yaml", widgets)).toBe("api-v1");
  });

  it("puts the prefix in front", () => {
    expect(deriveSlug("api/petstore.yaml", { ...widgets, prefix: "Team A" })).toBe("team-a-api-petstore");
    expect(deriveSlug("openapi.yaml", { ...widgets, prefix: "acme" })).toBe("acme-widgets");
  });

  it("accepts backslash-separated paths", () => {
    expect(deriveSlug("services\\payments\\openapi.json", widgets)).toBe("services-payments");
  });

  it("falls back to spec-<sha256 prefix> when no letter or digit is left", () => {
    const slug = deriveSlug("日本/仕様.yaml", widgets);
    expect(slug).toMatch(/^spec-[0-9a-f]{8}$/);
    expect(deriveSlug("日本/仕様.yaml", widgets)).toBe(slug);
    expect(deriveSlug("中文/规格.yaml", widgets)).not.toBe(slug);
    expect(deriveSlug("openapi.yaml", { repositoryName: "---" })).toMatch(/^spec-[0-9a-f]{8}$/);
  });

  it("shortens a slug over 100 characters to 91 and a hash of the whole, keeping long paths apart", () => {
    const slug = deriveSlug(`${"a".repeat(99)}/b.yaml`, widgets);
    expect(slug).toMatch(new RegExp(`^${"a".repeat(91)}-[0-9a-f]{8}$`));
    expect(deriveSlug(`${"x".repeat(150)}.yaml`, widgets)).toHaveLength(SLUG_MAX_LENGTH);
    expect(deriveSlug(`${"a".repeat(100)}.yaml`, widgets)).toBe("a".repeat(100));
    // Two paths that differ only after the 100th character (item 7 of issue 9).
    const long = `${"services/payments/".repeat(6)}openapi`;
    const [v1, v2] = [`${long}-v1.yaml`, `${long}-v2.yaml`].map((file) => deriveSlug(file, widgets));
    expect(v1).not.toBe(v2);
    for (const s of [v1, v2]) {
      expect(s).toMatch(SLUG_PATTERN);
      expect(s?.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    }
    // The cut never leaves a '-' before the hash's own '-'.
    expect(deriveSlug(`${"a".repeat(90)}/${"b".repeat(20)}.yaml`, widgets)).toMatch(
      new RegExp(`^${"a".repeat(90)}-[0-9a-f]{8}$`),
    );
  });

  it("gives distinct valid slugs to any set of distinct long names (property)", () => {
    const name = fc.stringMatching(/^[a-z0-9]{1,4}(-[a-z0-9]{1,4}){0,60}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 2, maxLength: 20 }),
        fc.string({ maxLength: 120 }),
        (names, stem) => {
          const slugs = names.map((n) => slugify(`${stem}-${n}`));
          const full = names.map((n) =>
            `${stem}-${n}`
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, "-")
              .replace(/^-+|-+$/g, ""),
          );
          for (const s of slugs) {
            expect(s).toMatch(SLUG_PATTERN);
            expect(s.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
          }
          // Names that differ before the cut give different slugs.
          expect(new Set(slugs).size).toBe(new Set(full).size);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("always yields a valid slug, for any path and prefix (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.option(fc.string()),
        fc.string(),
        (file, prefix, repo) => {
          const slug = deriveSlug(file, { repositoryName: repo, ...(prefix !== null ? { prefix } : {}) });
          expect(slug).toMatch(SLUG_PATTERN);
          expect(slug.length).toBeGreaterThanOrEqual(1);
          expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("always yields a valid slug for path-like inputs with unicode segments (property)", () => {
    const segment = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 });
    const filePath = fc
      .tuple(fc.array(segment, { maxLength: 6 }), segment, fc.constantFrom(".yaml", ".yml", ".JSON"))
      .map(([dirs, base, ext]) => [...dirs, base + ext].join("/"));
    fc.assert(
      fc.property(filePath, (file) => {
        const slug = deriveSlug(file, widgets);
        expect(slug).toMatch(SLUG_PATTERN);
        expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("slugify", () => {
  it("lowercases, strips accents and collapses separators", () => {
    expect(slugify("  Ünïcödé -- Straße__V2 ")).toBe("unicode-stra-e-v2");
    expect(slugify("***")).toBe("");
  });
});

describe("previewSlug", () => {
  it("appends -pr-<N>", () => {
    expect(previewSlug("payments", 42)).toBe("payments-pr-42");
  });

  it("shortens a base too long for the suffix with a hash, so long slugs keep distinct previews", () => {
    const base = `${"a".repeat(93)}-bbbbbb`;
    const slug = previewSlug(base, 7);
    expect(slug).toMatch(new RegExp(`^${"a".repeat(86)}-[0-9a-f]{8}-pr-7$`));
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(previewSlug(`${"a".repeat(93)}-bbbbbc`, 7)).not.toBe(slug);
    expect(previewSlug("a".repeat(95), 7)).toBe(`${"a".repeat(95)}-pr-7`);
  });

  it("rejects numbers that are not pull request numbers", () => {
    expect(() => previewSlug("a", 0)).toThrow(RangeError);
    expect(() => previewSlug("a", 1.5)).toThrow(/positive integer/);
  });

  it("always yields a valid slug of at most 100 characters (property)", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (p, r, n) => {
          const slug = previewSlug(deriveSlug(p, { repositoryName: r }), n);
          expect(slug).toMatch(SLUG_PATTERN);
          expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
          expect(slug.endsWith(`-pr-${n}`)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
