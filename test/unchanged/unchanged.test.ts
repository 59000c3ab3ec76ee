import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { type PublishRecord, RECORD_KEY, withRecord } from "../../src/core/ownership/ownership.ts";
import type { Spec } from "../../src/core/service/types.ts";
import { publishedRecord, sameAsPublished } from "../../src/core/unchanged/unchanged.ts";

const TEXT = "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n";
const ownerDigest = "0123456789abcdef0123456789abcdef";

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

function recordFor(text: string, path = "pets.yaml", owner = ownerDigest, slug = "pets"): PublishRecord {
  const recorded = withRecord(text, "yaml", owner, path, { slug, document: () => load(text) });
  if (!recorded.record) throw new Error(recorded.problem);
  return recorded.record;
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

/** The content as it arrives: a JSON body read by JSON.parse, `document` (TEXT's by default) carrying `record`. */
function contentWith(record: unknown, document: object = load(TEXT) as object): unknown {
  const stored = { [RECORD_KEY]: record, ...document };
  return JSON.parse(
    JSON.stringify({ filesystem: [entry(stored)], urls: { source: "https://x", public: null } }),
  );
}

function reasonOf(
  local: PublishRecord,
  published: { spec?: Partial<Spec>; content: unknown },
): string | undefined {
  const result = sameAsPublished(local, {
    spec: { ...SPEC, ...published.spec } as Spec,
    content: published.content,
  });
  return result.same ? undefined : result.reason;
}

describe("sameAsPublished", () => {
  it("is same when the version carries this very record over this very document, enriched or not", () => {
    const text =
      "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\n  description: All *pets*\npaths: {}\n";
    const local = recordFor(text);
    // GitBook's enrichment beside a description leaves it the same document.
    const stored = {
      openapi: "3.1.0",
      info: {
        title: "Pets",
        version: "1.0.0",
        description: "All *pets*",
        "x-gitbook-description-html": "<p>All <em>pets</em></p>",
      },
      paths: {},
    };
    expect(reasonOf(local, { content: contentWith(local, stored) })).toBeUndefined();
  });

  it("is not same for another text, file, owner or slug, each said", () => {
    const local = recordFor(TEXT);
    const changedText = TEXT.replace("1.0.0", "1.0.1");
    const changed = recordFor(changedText);
    expect(reasonOf(local, { content: contentWith(changed, load(changedText) as object) })).toBe(
      "the text differs from the one GitBook holds",
    );
    expect(reasonOf(local, { content: contentWith(recordFor(TEXT, "old/pets.yaml")) })).toBe(
      "GitBook's version was published from old/pets.yaml",
    );
    expect(reasonOf(local, { content: contentWith(recordFor(TEXT, "pets.yaml", "f".repeat(32))) })).toBe(
      "another repository or configuration published the version GitBook holds",
    );
    expect(
      reasonOf(local, { content: contentWith(recordFor(TEXT, "pets.yaml", ownerDigest, "pets-copy")) }),
    ).toMatch(/written for the slug 'pets-copy', not this one/);
  });

  it("is not same when the record sits in other content, or cannot be checked against it", () => {
    const local = recordFor(TEXT);
    const other = { openapi: "3.1.0", info: { title: "Not pets", version: "1.0.0" }, paths: {} };
    expect(reasonOf(local, { content: contentWith(local, other) })).toMatch(
      /GitBook's document is not the one its `x-publish-record` describes/,
    );
    const { document: _digest, ...unchecked } = local;
    expect(reasonOf(local, { content: contentWith(unchecked) })).toMatch(/states no digest of its document/);
    const { slug: _slug, ...earlier } = local;
    expect(reasonOf(local, { content: contentWith(earlier) })).toMatch(/earlier version of this tool/);
  });

  it("tells numbers apart as written, even past 2^53", () => {
    const text = "openapi: 3.1.0\ninfo: {title: A, version: '1'}\nx-id: 9007199254740993\n";
    const before = recordFor(text);
    const after = recordFor("openapi: 3.1.0\ninfo: {title: A, version: '1'}\nx-id: 9007199254740992\n");
    expect(Number("9007199254740993")).toBe(Number("9007199254740992"));
    expect(reasonOf(after, { content: contentWith(before, load(text) as object) })).toBe(
      "the text differs from the one GitBook holds",
    );
  });

  it("says why for every state that leaves the version unproven", () => {
    const local = recordFor(TEXT);
    const content = contentWith(local);
    expect(reasonOf(local, { spec: { processingState: "progress" }, content })).toMatch(
      /not finished processing/,
    );
    expect(reasonOf(local, { spec: { lastProcessErrorCode: "PARSE_ERROR" }, content })).toBe(
      "the last processing failed (PARSE_ERROR)",
    );
    expect(reasonOf(local, { spec: { sourceURL: "https://x/openapi.yaml" }, content })).toMatch(/from a URL/);
    expect(reasonOf(local, { spec: { lastVersion: undefined }, content })).toMatch(/no processed version/);
  });
});

describe("publishedRecord", () => {
  it("reads nothing from hostile or unknown shapes", () => {
    const record = recordFor(TEXT);
    const cases: [unknown, RegExp][] = [
      [null, /no filesystem/],
      [{ filesystem: { "openapi.json": {} } }, /unknown shape/],
      [{ filesystem: [] }, /no single entrypoint/],
      [{ filesystem: [entry({}), entry({})] }, /no single entrypoint/],
      [{ filesystem: [entry({ openapi: "3.1.0" })] }, /carries no `x-publish-record`/],
      [{ filesystem: [entry({ [RECORD_KEY]: { ...record, digest: 12 } })] }, /carries no/],
      [{ filesystem: [entry({ [RECORD_KEY]: { ...record, tool: "other" } })] }, /carries no/],
      [{ filesystem: [entry(Object.create({ [RECORD_KEY]: record }))] }, /carries no/],
    ];
    for (const [content, reason] of cases) expect(publishedRecord(content)).toMatch(reason);
    const document = { [RECORD_KEY]: record, ...(load(TEXT) as object) };
    expect(publishedRecord({ filesystem: [entry(document)] })).toEqual({ ...record, contentProven: true });
  });
});
