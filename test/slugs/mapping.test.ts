import { describe, expect, it } from "vitest";
import { assignSlugs } from "../../src/core/slugs/assign.ts";
import { DuplicateSlugError, SlugInputError } from "../../src/core/slugs/errors.ts";
import { parseSlugMapping } from "../../src/core/slugs/mapping.ts";

describe("parseSlugMapping", () => {
  it("reads path: slug lines, skipping blanks and comments, normalizing paths", () => {
    const mapping = parseSlugMapping(
      [
        "# public APIs",
        "",
        "./api/openapi.yaml: payments",
        "  services\\billing.json :billing-v2  ",
        "",
      ].join("\n"),
    );
    expect([...mapping]).toEqual([
      ["api/openapi.yaml", "payments"],
      ["services/billing.json", "billing-v2"],
    ]);
  });

  it("names the input and the line number for a line without ':'", () => {
    expect(() => parseSlugMapping("a.yaml: a\n\nb.yaml b")).toThrow(SlugInputError);
    expect(() => parseSlugMapping("a.yaml: a\n\nb.yaml b")).toThrow(/`slugs` input, line 3/);
  });

  it("rejects an invalid slug and says why", () => {
    expect(() => parseSlugMapping("a.yaml: Payments")).toThrow(/line 1.*uppercase/);
    expect(() => parseSlugMapping("a.yaml:")).toThrow(/line 1.*empty/);
    expect(() => parseSlugMapping(`a.yaml: ${"a".repeat(101)}`)).toThrow(/limit is 100/);
  });

  it("rejects one path mapped to two slugs", () => {
    expect(() => parseSlugMapping("a.yaml: one\n./a.yaml: two")).toThrow(/line 2.*already mapped to "one"/);
  });
});

describe("assignSlugs", () => {
  const repositoryName = "widgets";

  it("derives slugs and lets explicit mappings win without the prefix", () => {
    const slugs = assignSlugs(["openapi.yaml", "api/petstore.yaml"], {
      repositoryName,
      prefix: "acme",
      mapping: new Map([["api/petstore.yaml", "pets"]]),
    });
    expect(slugs.get("openapi.yaml")).toBe("acme-widgets");
    expect(slugs.get("api/petstore.yaml")).toBe("pets");
  });

  it("names both files and the fix when two specs share a slug", () => {
    const paths = ["payments/openapi.yaml", "payments/openapi.json"];
    let error: unknown;
    try {
      assignSlugs(paths, { repositoryName });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DuplicateSlugError);
    const message = (error as Error).message;
    expect(message).toContain('"payments": "payments/openapi.json" keeps it');
    expect(message).toContain('give "payments/openapi.yaml" the slug "payments-yaml"');
    expect(message).toContain("  slugs: |\n    payments/openapi.yaml: payments-yaml");
  });

  it("detects a mapped slug that collides with a derived one", () => {
    expect(() =>
      assignSlugs(["a.yaml", "b.yaml"], { repositoryName, mapping: new Map([["b.yaml", "a"]]) }),
    ).toThrow(DuplicateSlugError);
  });

  it("resolves a collision once the user maps one of the files", () => {
    const slugs = assignSlugs(["p/openapi.yaml", "p/openapi.json"], {
      repositoryName,
      mapping: new Map([["p/openapi.json", "p-json"]]),
    });
    expect(slugs.get("p/openapi.yaml")).toBe("p");
    expect(slugs.get("p/openapi.json")).toBe("p-json");
  });

  it("rejects a mapped path that is not a discovered spec", () => {
    expect(() =>
      assignSlugs(["api/openapi.yaml"], { repositoryName, mapping: new Map([["api/openapi.yml", "x"]]) }),
    ).toThrow(/maps "api\/openapi.yml".*api\/openapi.yaml.*typo/);
  });
});
