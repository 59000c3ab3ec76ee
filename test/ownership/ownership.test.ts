import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import {
  digestOf,
  documentDigest,
  ownerKey,
  RECORD_KEY,
  recordOf,
  repositoryIdentity,
  withRecord,
} from "../../src/core/ownership/ownership.ts";

describe("repositoryIdentity", () => {
  it.each([
    ["https://github.com/Acme/Widgets", "github.com/acme/widgets"],
    ["https://github.com/acme/widgets.git", "github.com/acme/widgets"],
    ["https://x-access-token:ghs_secret@github.com/acme/widgets.git", "github.com/acme/widgets"],
    ["git@github.com:acme/widgets.git", "github.com/acme/widgets"],
    ["ssh://git@gitlab.example.com:2222/group/sub/project.git", "gitlab.example.com/group/sub/project"],
    ["https://gitlab.com/group/project/", "gitlab.com/group/project"],
    ["https://dev.azure.com/org/project/_git/repo", "dev.azure.com/org/project/_git/repo"],
  ])("%s → %s, never with credentials", (url, identity) => {
    expect(repositoryIdentity(url)).toBe(identity);
    expect(repositoryIdentity(url)).not.toContain("secret");
  });

  it.each([undefined, "", "   ", "not a url", "https://github.com/", "/just/a/path"])(
    "%j names no repository",
    (url) => {
      expect(repositoryIdentity(url)).toBeUndefined();
    },
  );
});

describe("the publish record", () => {
  it("tells repositories and slug prefixes apart, and names neither", () => {
    const a = ownerKey({ repository: "github.com/acme/a", slugPrefix: "pay" });
    expect(ownerKey({ repository: "github.com/acme/a", slugPrefix: "pay" })).toBe(a);
    expect(ownerKey({ repository: "github.com/acme/b", slugPrefix: "pay" })).not.toBe(a);
    expect(ownerKey({ repository: "github.com/acme/a", slugPrefix: "pay-v2" })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });

  it("goes first in the uploaded text, reads back from the parsed document, and digests the text without it", () => {
    const text = "openapi: 3.1.0\ninfo: {title: Café, version: '1'}\n";
    const recorded = withRecord(text, "yaml", "ab".repeat(16), 'specs/café "quoted".yaml', {
      slug: "cafe",
      commit: "c".repeat(40),
      document: () => load(text),
    });
    expect(recorded.record).toBeDefined();
    const document = load(recorded.text) as Record<string, unknown>;
    expect(Object.keys(document)[0]).toBe(RECORD_KEY);
    expect(recordOf(document)).toEqual(recorded.record);
    expect(recorded.record?.digest).toBe(digestOf(text));
    expect(recorded.record?.path).toBe('specs/café "quoted".yaml');
    expect(recorded.record).toMatchObject({ slug: "cafe", commit: "c".repeat(40) });
    expect(recorded.record?.document).toBe(documentDigest(load(text)));
  });

  it("takes the place of a record copied into the text, in every layout, every other byte kept", () => {
    const copied = `{ "tool": "gitbook-openapi", "owner": "${"f".repeat(32)}", "path": "a.yaml", "slug": "pay-orders", "digest": "sha256:0" }`;
    const texts: [string, "json" | "yaml", string][] = [
      [
        `openapi: 3.1.0\n${RECORD_KEY}: ${copied}\ninfo: {title: A, version: '1'} # kept\n`,
        "yaml",
        "openapi: 3.1.0\ninfo: {title: A, version: '1'} # kept\n",
      ],
      [
        `openapi: 3.1.0\n${RECORD_KEY}:\n  tool: gitbook-openapi\n  owner: x\ninfo: {title: A, version: '1'}\n`,
        "yaml",
        "openapi: 3.1.0\ninfo: {title: A, version: '1'}\n",
      ],
      [
        `{\n  "openapi": "3.1.0",\n  "${RECORD_KEY}": ${copied},\n  "info": {"title": "A", "version": "1"}\n}\n`,
        "json",
        `{\n  "openapi": "3.1.0",\n  "info": {"title": "A", "version": "1"}\n}\n`,
      ],
      [
        `{"openapi":"3.1.0","info":{"title":"A","version":"1"},"${RECORD_KEY}":${copied}}`,
        "json",
        `{"openapi":"3.1.0","info":{"title":"A","version":"1"}}`,
      ],
    ];
    for (const [text, format, own] of texts) {
      const recorded = withRecord(text, format, "o".repeat(32), "b.yaml", {
        slug: "pay-v2-orders",
        document: () => load(text),
      });
      expect(recorded.record, text).toMatchObject({
        owner: "o".repeat(32),
        slug: "pay-v2-orders",
        digest: digestOf(own),
      });
      const document = load(recorded.text) as Record<string, unknown>;
      expect(recordOf(document)).toEqual(recorded.record);
      expect(recorded.text.split(RECORD_KEY)).toHaveLength(2);
    }
  });

  it("refuses a text whose copied record cannot be taken out, and leaves out one that cannot take it", () => {
    const twice = `openapi: 3.1.0\n${RECORD_KEY}: a\n${RECORD_KEY}: b\n`;
    expect(withRecord(twice, "yaml", "o", "a.yaml", { slug: "a", document: () => ({}) })).toMatchObject({
      record: undefined,
      refused: true,
      problem: expect.stringContaining("delete that key from the file"),
    });
    expect(withRecord("- a\n", "yaml", "o", "a.yaml", { slug: "a", document: () => ["a"] })).toMatchObject({
      record: undefined,
      text: "- a\n",
    });
  });

  it("digests the document GitBook stores: enrichment, the record and an empty version aside", () => {
    const document = { openapi: "3.1.0", info: { title: "A", version: "", description: "d" }, paths: {} };
    const digest = documentDigest(document);
    expect(
      documentDigest({
        [RECORD_KEY]: { tool: "gitbook-openapi" },
        openapi: "3.1.0",
        info: { title: "A", version: "0.0.1", description: "d", "x-gitbook-description-html": "<p>d</p>" },
        paths: {},
      }),
    ).toBe(digest);
    expect(documentDigest({ ...document, paths: { "/a": {} } })).not.toBe(digest);
    expect(documentDigest({ ...document, "x-gitbook-description-html": "<p>forged</p>" })).not.toBe(digest);
    expect(documentDigest({ info: document.info, openapi: "3.1.0", paths: {} })).not.toBe(digest);
    // Swagger 2.0 as GitBook stores it: upgraded to OpenAPI 3.1.
    const swagger = { swagger: "2.0", info: { title: "A", version: "1" }, host: "x.example", paths: {} };
    // The upgrader edits in place: the new keys come after the old ones.
    const upgraded = {
      info: { title: "A", version: "1" },
      paths: {},
      openapi: "3.1.1",
      servers: [{ url: "http://x.example" }],
    };
    expect(documentDigest(swagger)).toMatch(/^sha256:/);
    expect(documentDigest(swagger)).toBe(documentDigest(upgraded));
    expect(swagger.swagger).toBe("2.0");
  });
});
