/**
 * The publish record is spliced into the text a user wrote: every case below must read back as the same
 * document with one more key first, through both YAML readers we know and JSON.parse.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { insertRootKey, removeRootKey } from "../../src/core/documents/root-key.ts";

const VALUE =
  '{ "tool": "gitbook-openapi", "owner": "ab12", "path": "a/b \\u00e9.yaml", "digest": "sha256:00" }';
const RECORD = { tool: "gitbook-openapi", owner: "ab12", path: "a/b é.yaml", digest: "sha256:00" };

function splice(text: string, format: "json" | "yaml"): string {
  const inserted = insertRootKey(text, format, "x-publish-record", VALUE);
  if (!inserted.ok) throw new Error(inserted.reason);
  return inserted.text;
}

/** The document read by both YAML libraries (they must agree), or by JSON.parse for JSON. */
function readBoth(text: string, format: "json" | "yaml"): unknown {
  if (format === "json") return JSON.parse(text.replace(/^\uFEFF/, ""));
  const fromJsYaml = load(text);
  expect(parseYaml(text, { uniqueKeys: false, maxAliasCount: -1 })).toEqual(fromJsYaml);
  return fromJsYaml;
}

function expectRecordFirst(original: string, format: "json" | "yaml"): void {
  const spliced = splice(original, format);
  const before = readBoth(original, format) as Record<string, unknown>;
  const after = readBoth(spliced, format) as Record<string, unknown>;
  expect(after).toEqual({ "x-publish-record": RECORD, ...before });
  expect(Object.keys(after)[0]).toBe("x-publish-record");
  // Every byte the user wrote is still there, in order: the splice is one inserted run.
  expect(withoutInsertion(spliced, original)).toBe(original);
}

/** `spliced` less the one run of characters it has and `original` lacks. */
function withoutInsertion(spliced: string, original: string): string {
  let start = 0;
  while (start < original.length && spliced[start] === original[start]) start++;
  const end = spliced.length - (original.length - start);
  expect(spliced.slice(start, end)).toContain("x-publish-record");
  return spliced.slice(0, start) + spliced.slice(end);
}

describe("insertRootKey", () => {
  it.each([
    ["plain", "openapi: 3.1.0\ninfo:\n  title: A\n  version: '1'\n"],
    [
      "comments, blank lines and a directive",
      "# API\n\n%YAML 1.2\n---\n# first\nopenapi: 3.0.3\ninfo: {title: A, version: '1'}\n",
    ],
    ["a document marker with a comment", "--- # start\nopenapi: 3.0.3\ninfo: {title: A, version: '1'}\n"],
    ["CRLF line endings", "openapi: 3.0.3\r\ninfo:\r\n  title: A\r\n  version: '1'\r\n"],
    ["a BOM", "\uFEFFopenapi: 3.0.3\ninfo: {title: A, version: '1'}\n"],
    ["quoted keys", '"openapi": "3.0.3"\n\'info\': {title: A, version: "1"}\n'],
    ["an indented root mapping", "  openapi: 3.0.3\n  info: {title: A, version: '1'}\n"],
    ["a flow mapping (JSON in a .yaml file)", '{"openapi": "3.0.3", "info": {"title": "A", "version": "1"}}'],
    [
      "a block scalar at the end, no final newline",
      "openapi: 3.0.3\ninfo: {title: A, version: '1'}\nx-notes: |\n  line\n  last",
    ],
    ["a key with no value on the first line", "openapi:\n  3.0.3\ninfo: {title: A, version: '1'}\n"],
  ])("YAML: %s", (_name, text) => {
    expectRecordFirst(text, "yaml");
  });

  it.each([
    ["compact", '{"openapi":"3.0.3","info":{"title":"A","version":"1"},"x-n":9007199254740993}'],
    ["indented", '{\n  "openapi": "3.0.3",\n  "info": {"title": "A", "version": "1"}\n}\n'],
    ["a BOM and leading space", '\uFEFF \n{ "openapi": "3.0.3", "info": {"title": "A", "version": "1"} }'],
  ])("JSON: %s", (_name, text) => {
    expectRecordFirst(text, "json");
    expect(splice(text, "json")).toContain(
      text.includes("9007199254740993") ? "9007199254740993" : "openapi",
    );
  });

  it.each([
    ["a sequence at the top", "- openapi: 3.0.3\n", "yaml"],
    ["a scalar", "just text\n", "yaml"],
    ["a tag on the root", "--- !!map\nopenapi: 3.0.3\n", "yaml"],
    ["an anchor on the root", "&root\nopenapi: 3.0.3\n", "yaml"],
    ["an explicit key", "? openapi\n: 3.0.3\n", "yaml"],
    ["two document markers", "---\n---\nopenapi: 3.0.3\n", "yaml"],
    ["nothing", "# only a comment\n", "yaml"],
    ["an empty flow mapping", "{}\n", "yaml"],
    ["an array", "[1]", "json"],
    ["an empty object", "{ }", "json"],
  ] as const)("refuses %s, saying why", (_name, text, format) => {
    const inserted = insertRootKey(text, format, "x-publish-record", VALUE);
    expect(inserted.ok).toBe(false);
    expect(inserted.ok ? "" : inserted.reason).toMatch(/top|mapping|marker|object/);
  });

  it("keeps any generated mapping's document, with the record first (YAML and JSON)", () => {
    const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== "x-publish-record");
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 8 }), (document) => {
        const json = JSON.stringify(document, null, 2);
        const after = JSON.parse(splice(json, "json"));
        expect(after).toEqual({ "x-publish-record": RECORD, ...document });
      }),
    );
  });

  it("reads back every YAML file of a real split spec (DigitalOcean, 2,900 files) as written plus the record", () => {
    const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
    const dir = mkdtempSync(path.join(tmpdir(), "root-key-"));
    try {
      execFileSync("tar", ["-xzf", path.join(fixtures, "digitalocean-openapi.tar.gz"), "-C", dir]);
      const files = walk(dir).filter((file) => /\.ya?ml$/.test(file));
      let spliced = 0;
      let refused = 0;
      for (const file of files) {
        const text = readFileSync(file, "utf8");
        const document = load(text);
        const isMapping = typeof document === "object" && document !== null && !Array.isArray(document);
        const inserted = insertRootKey(text, "yaml", "x-publish-record", VALUE);
        if (!inserted.ok) {
          refused++;
          // Only files whose top level is not a mapping may be refused.
          expect(isMapping && Object.keys(document as object).length > 0, file).toBe(false);
          continue;
        }
        spliced++;
        expect(load(inserted.text), file).toEqual({ "x-publish-record": RECORD, ...(document as object) });
      }
      expect(files.length).toBeGreaterThan(2800);
      expect(spliced).toBeGreaterThan(2800);
      expect(refused).toBeLessThan(files.length - spliced + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? walk(file) : [file];
  });
}

describe("removeRootKey", () => {
  const K = "x-publish-record";
  it.each([
    [`a: 1\r\n${K}: { "b": 2 }\r\nc: 3\r\n`, "yaml", "a: 1\r\nc: 3\r\n"],
    [`a: 1\n${K}: { "b": 2 }`, "yaml", "a: 1\n"],
    [`# c\n---\n${K}:\n  b: 2\n  # x\na: 1\n`, "yaml", "# c\n---\na: 1\n"],
    [`{ a: 1, ${K}: { b: 2 } }\n`, "yaml", "{ a: 1 }\n"],
    [`\uFEFF{"a": 1, "${K}": {"b": [1, {"c": "}"}]}, "d": 2}`, "json", '\uFEFF{"a": 1, "d": 2}'],
    [`{"a": 1,\n "${K}": {}\n}`, "json", '{"a": 1\n}'],
    [`a:\n  ${K}: 1\n`, "yaml", `a:\n  ${K}: 1\n`],
  ] as const)("cuts the key out of %j, every other byte kept", (text, format, expected) => {
    expect(removeRootKey(text, format, K)).toEqual({ ok: true, text: expected });
  });

  it("refuses what it cannot cut with certainty", () => {
    expect(removeRootKey(`a: 1\n${K}: &x {b: 2}\nc: *x\n`, "yaml", K)).toMatchObject({ ok: false });
    expect(removeRootKey(`${K}: 1\n${K}: 2\n`, "yaml", K)).toMatchObject({ ok: false });
    expect(removeRootKey(`- ${K}\n`, "yaml", K)).toMatchObject({ ok: false });
  });
});
