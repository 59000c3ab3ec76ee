import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import {
  digestOf,
  ownerKey,
  RECORD_KEY,
  recordOf,
  repositoryIdentity,
  withRecord,
} from "../../src/core/sync/ownership.ts";

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
    const recorded = withRecord(text, "yaml", "ab".repeat(16), 'specs/café "quoted".yaml');
    expect(recorded.record).toBeDefined();
    const document = load(recorded.text) as Record<string, unknown>;
    expect(Object.keys(document)[0]).toBe(RECORD_KEY);
    expect(recordOf(document)).toEqual(recorded.record);
    expect(recorded.record?.digest).toBe(digestOf(text));
    expect(recorded.record?.path).toBe('specs/café "quoted".yaml');
  });

  it("is left out, with the reason, from a text that already names it or cannot take it", () => {
    expect(withRecord(`openapi: 3.1.0\n${RECORD_KEY}: mine\n`, "yaml", "o", "a.yaml")).toMatchObject({
      record: undefined,
      problem: expect.stringContaining("already holds"),
    });
    expect(withRecord("- a\n", "yaml", "o", "a.yaml")).toMatchObject({ record: undefined, text: "- a\n" });
  });
});
