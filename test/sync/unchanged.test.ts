import { describe, expect, it } from "vitest";
import type { Spec } from "../../src/client/types.ts";
import { parseSource } from "../../src/documents/source-text.ts";
import { sameAsPublished } from "../../src/sync/unchanged.ts";

const DOCUMENT_TEXT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Pets", version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: { Pet: { type: "object", required: ["id"], properties: { id: { type: "integer" } } } },
  },
});

/** A fresh parse each time, as the run and the client each parse their own copy. */
function documentOf(text = DOCUMENT_TEXT): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

const SPEC: Spec = {
  object: "openapi-spec",
  id: "spec_1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  slug: "pets",
  processingState: "complete",
  lastVersion: "ver_1",
  lastProcessedAt: "2026-01-01T00:00:01.000Z",
  lastProcessedErrorCount: 0,
  permissions: { edit: true },
  urls: { location: "https://api/pets", app: "https://app/pets" },
};

/** The object at a path of keys, for editing a test document. */
function at(value: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  let node = value;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  return node;
}

function entry(specification: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dir: ".",
    filename: "openapi.json",
    isEntrypoint: true,
    references: [],
    specification,
    ...overrides,
  };
}

/** The content as it arrives: a JSON body read by JSON.parse. */
function contentOf(filesystem: unknown): unknown {
  return JSON.parse(JSON.stringify({ filesystem, urls: { source: "https://x", public: null } }));
}

function reasonOf(local: unknown, published: { spec?: Partial<Spec>; content: unknown }): string | undefined {
  const result = sameAsPublished(local, {
    spec: { ...SPEC, ...published.spec } as Spec,
    content: published.content,
  });
  return result.same ? undefined : result.reason;
}

describe("sameAsPublished", () => {
  it("is same for the same parsed document in a single entrypoint, whatever the key order or file name", () => {
    const reordered = documentOf();
    const { openapi, ...rest } = reordered;
    const published = contentOf([entry({ ...rest, openapi }, { filename: "pets.yaml", dir: "" })]);
    expect(sameAsPublished(documentOf(), { spec: SPEC, content: published })).toEqual({ same: true });
  });

  it("compares parsed values: the YAML we read equals the JSON GitBook serves", () => {
    const yaml = [
      "openapi: 3.1.0",
      "info: {title: Pets, version: '1.0.0'}",
      "x-limit: 1.0",
      "x-flags: [true, null, 0x10]",
      "paths: {}",
    ].join("\n");
    const published = {
      openapi: "3.1.0",
      info: { title: "Pets", version: "1.0.0" },
      "x-limit": 1,
      "x-flags": [true, null, 16],
      paths: {},
    };
    expect(reasonOf(parseSource(yaml, false), { content: contentOf([entry(published)]) })).toBeUndefined();
  });

  describe("says why it is not same", () => {
    const good = () => contentOf([entry(documentOf())]);

    it.each([
      [
        { processingState: "progress" },
        'GitBook has not finished processing the last upload (state "progress")',
      ],
      [
        { processingState: "pending" },
        'GitBook has not finished processing the last upload (state "pending")',
      ],
      [
        { processingState: "archived" },
        'GitBook has not finished processing the last upload (state "archived")',
      ],
      [{ lastProcessErrorCode: "PARSE_ERROR" }, "the last processing failed (PARSE_ERROR)"],
      [{ lastProcessErrorCode: "" }, 'the last processing failed ("")'],
      [{ lastVersion: undefined }, "GitBook holds no processed version of this spec"],
      [
        { sourceURL: "https://example.com/a.yaml" },
        "GitBook reads this spec from a URL, whose content may have changed since",
      ],
    ] as [Partial<Spec>, string][])("spec %j", (spec, reason) => {
      expect(reasonOf(documentOf(), { spec, content: good() })).toBe(reason);
    });

    it("for files of another count, entrypoint or references", () => {
      const doc = documentOf();
      expect(reasonOf(doc, { content: contentOf([]) })).toBe("GitBook's version content has no files");
      expect(reasonOf(doc, { content: contentOf([entry(doc), entry({}, { isEntrypoint: false })]) })).toBe(
        "GitBook's version content has 2 files",
      );
      expect(reasonOf(doc, { content: contentOf([entry(doc, { isEntrypoint: false })]) })).toBe(
        "GitBook's version content has no entrypoint",
      );
      expect(reasonOf(doc, { content: contentOf([entry(doc, { references: ["pet.yaml"] })]) })).toBe(
        "GitBook's published document refers to 1 other file",
      );
      expect(reasonOf(doc, { content: contentOf([entry(doc, { references: ["a", "b"] })]) })).toBe(
        "GitBook's published document refers to 2 other files",
      );
    });

    it("for a different document, with where it first differs", () => {
      const changed = documentOf();
      (changed.info as Record<string, unknown>).version = "1.0.1";
      expect(reasonOf(changed, { content: good() })).toBe(
        "GitBook holds a different document (first difference at /info/version)",
      );
      const enriched = documentOf();
      const ok = at(enriched, "paths", "/pets", "get", "responses", "200");
      ok["x-gitbook-description-html"] = "<p>ok</p>";
      expect(reasonOf(documentOf(), { content: contentOf([entry(enriched)]) })).toBe(
        "GitBook holds a different document (first difference at /paths/~1pets/get/responses/200/x-gitbook-description-html)",
      );
      const lessLocal = documentOf();
      delete lessLocal.components;
      expect(reasonOf(documentOf(), { content: contentOf([entry(lessLocal)]) })).toBe(
        "GitBook holds a different document (first difference at /components)",
      );
      const reordered = documentOf();
      at(reordered, "components", "schemas", "Pet").required = ["id", "name"];
      expect(reasonOf(documentOf(), { content: contentOf([entry(reordered)]) })).toBe(
        "GitBook holds a different document (first difference at /components/schemas/Pet/required)",
      );
      expect(reasonOf(documentOf(), { content: contentOf([entry("openapi: 3.1.0")]) })).toBe(
        "GitBook holds a different document (first difference at the root)",
      );
    });

    it("for what GitBook transforms: Swagger 2.0 and references to other files", () => {
      const swagger = { swagger: "2.0", info: { title: "a", version: "1" }, paths: {} };
      expect(reasonOf(swagger, { content: contentOf([entry(swagger)]) })).toBe(
        "GitBook converts Swagger 2.0 to OpenAPI 3, so its copy cannot be compared with ours",
      );
      const external = documentOf();
      at(external, "components", "schemas").Pet = { $ref: "./pet.yaml" };
      expect(reasonOf(external, { content: contentOf([entry(external)]) })).toBe(
        "the local document refers to another file (/components/schemas/Pet/$ref), which GitBook bundles",
      );
    });

    it("for a local value JSON cannot carry", () => {
      for (const odd of [undefined, Number.NaN, Number.POSITIVE_INFINITY, new Date(0), () => 1, 1n]) {
        const local = { ...documentOf(), "x-odd": odd };
        const published = { ...documentOf(), "x-odd": odd };
        expect(reasonOf(local, { content: { filesystem: [entry(published)] } })).toBe(
          "GitBook holds a different document (first difference at /x-odd)",
        );
      }
      expect(reasonOf([documentOf()], { content: contentOf([entry([documentOf()])]) })).toBe(
        "the local document is not a mapping",
      );
    });
  });

  describe("hostile content shapes", () => {
    const doc = documentOf();

    it.each([
      [null, "GitBook's version content has no filesystem"],
      [[], "GitBook's version content has no filesystem"],
      ["text", "GitBook's version content has no filesystem"],
      [{}, "GitBook's version content has no filesystem"],
      [
        { filesystem: null },
        "GitBook's version content has an unknown shape: the filesystem is null, not a list of files",
      ],
      [
        { filesystem: { "openapi.json": {} } },
        "GitBook's version content has an unknown shape: the filesystem is an object, not a list of files",
      ],
      [
        { filesystem: [null] },
        "GitBook's version content has an unknown shape: file 1 is null, not an object",
      ],
      [
        { filesystem: [[]] },
        "GitBook's version content has an unknown shape: file 1 is an array, not an object",
      ],
      [
        { filesystem: [{ dir: ".", filename: "a", isEntrypoint: "yes", references: [], specification: {} }] },
        'GitBook\'s version content has an unknown shape: file 1 has an isEntrypoint that is the string "yes"',
      ],
    ])("%j", (content, reason) => {
      expect(reasonOf(doc, { content })).toBe(reason);
    });

    it("reads no inherited or prototype keys", () => {
      const viaProto = JSON.parse(`{"__proto__": {"filesystem": ${JSON.stringify([entry(doc)])}}}`);
      expect(reasonOf(doc, { content: viaProto })).toBe("GitBook's version content has no filesystem");
      const inherited = Object.create({ filesystem: [entry(doc)] });
      expect(reasonOf(doc, { content: inherited })).toBe("GitBook's version content has no filesystem");
    });

    it("treats a __proto__ key as data on both sides, and never pollutes", () => {
      const local = JSON.parse('{"openapi": "3.1.0", "__proto__": {"polluted": true}}');
      const same = JSON.parse('{"openapi": "3.1.0", "__proto__": {"polluted": true}}');
      const other = JSON.parse('{"openapi": "3.1.0", "__proto__": {"polluted": false}}');
      const none = JSON.parse('{"openapi": "3.1.0", "x": 1}');
      expect(reasonOf(local, { content: contentOf([entry(same)]) })).toBeUndefined();
      expect(reasonOf(local, { content: { filesystem: [entry(other)] } })).toBe(
        "GitBook holds a different document (first difference at /__proto__/polluted)",
      );
      expect(reasonOf(local, { content: { filesystem: [entry(none)] } })).toBe(
        "GitBook holds a different document (first difference at /__proto__)",
      );
      // An object whose prototype holds the keys is not a plain JSON object.
      const disguised = Object.create({ openapi: "3.1.0" });
      expect(reasonOf({ openapi: "3.1.0" }, { content: { filesystem: [entry(disguised)] } })).toBe(
        "GitBook holds a different document (first difference at the root)",
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("walks a huge nesting without overflowing the stack, and cuts the pointer", () => {
      const depth = 200_000;
      const nest = (leaf: unknown) => {
        let value: unknown = leaf;
        for (let i = 0; i < depth; i++) value = { a: [value] };
        return { openapi: "3.1.0", deep: value };
      };
      expect(reasonOf(nest(1), { content: { filesystem: [entry(nest(1))] } })).toBeUndefined();
      const reason = reasonOf(nest(1), { content: { filesystem: [entry(nest(2))] } });
      expect(reason).toMatch(/^GitBook holds a different document \(first difference at …(\/a\/0)+\)$/);
      expect(reason?.length).toBeLessThan(200);
    });

    it("ends on cyclic or shared published values", () => {
      const cyclic: Record<string, unknown> = { openapi: "3.1.0" };
      cyclic.self = cyclic;
      const local: Record<string, unknown> = { openapi: "3.1.0" };
      local.self = local;
      expect(reasonOf(local, { content: { filesystem: [entry(cyclic)] } })).toBe(
        "GitBook holds a different document (first difference at /self)",
      );
    });
  });
});
