import { describe, expect, it } from "vitest";
import { specBody } from "../../harness/loopback/loopback.ts";
import {
  parseErrorBody,
  parseOrganizationList,
  parseSpec,
  parseSpecPage,
  parseSpecVersion,
  parseSpecVersionContent,
  ResponseShapeError,
  readVersionFiles,
} from "../../src/core/service/parse.ts";

describe("parseSpec", () => {
  it("accepts a full specification and keeps unknown enumeration values", () => {
    const spec = parseSpec(specBody("pets", { processingState: "queued", lastProcessErrorCode: "NEW_CODE" }));
    expect(spec.slug).toBe("pets");
    expect(spec.processingState).toBe("queued");
    expect(spec.lastProcessErrorCode).toBe("NEW_CODE");
  });

  it.each([
    ["object", "wrong", 'body.object is the string "wrong", expected "openapi-spec"'],
    ["id", 42, "body.id is a number, expected a string"],
    ["slug", undefined, "body.slug is missing"],
    ["processingState", null, "body.processingState is null"],
    ["urls", [], "body.urls is an array, expected an object"],
  ])("rejects a specification whose %s is wrong", (key, value, problem) => {
    expect(() => parseSpec(specBody("pets", { [key]: value }))).toThrow(problem);
    expect(() => parseSpec(specBody("pets", { [key]: value }))).toThrow(ResponseShapeError);
  });

  it("drops optional fields of the wrong type and normalizes processing errors", () => {
    const spec = parseSpec(
      specBody("pets", {
        lastVersion: 7,
        lastProcessErrorCode: null,
        lastProcessedErrors: [{ message: "bad ref", code: "E1" }, { line: 3 }, "junk"],
        permissions: undefined,
      }),
    );
    expect(spec).not.toHaveProperty("lastVersion");
    expect(spec).not.toHaveProperty("lastProcessErrorCode");
    expect(spec.lastProcessedErrors).toEqual([{ message: "bad ref", code: "E1" }, { message: '{"line":3}' }]);
    expect(spec.permissions).toEqual({ edit: false });
  });

  it("rejects a body that is not an object", () => {
    expect(() => parseSpec("pets")).toThrow('body is the string "pets", expected an object');
  });
});

describe("pages", () => {
  it("reads items and next.page, and treats a missing, null or empty next as the last page", () => {
    const page = parseSpecPage({ items: [specBody("a")], count: 3, next: { page: "p2" } });
    expect(page.items.map((s) => s.slug)).toEqual(["a"]);
    expect(page.next).toEqual({ page: "p2" });
    expect(page.count).toBe(3);
    expect(parseSpecPage({ items: [] }).next).toBeUndefined();
    expect(parseSpecPage({ items: [], next: null }).next).toBeUndefined();
    expect(parseSpecPage({ items: [], next: { page: "" } }).next).toBeUndefined();
  });

  it("names the item that is wrong", () => {
    expect(() => parseSpecPage({ items: [specBody("a"), { object: "openapi-spec" }] })).toThrow(
      "body.items[1].id is missing",
    );
    expect(() => parseSpecPage({ results: [] })).toThrow("body.items is missing, expected an array");
  });
});

describe("versions, content and organizations", () => {
  it("checks the required fields of a version", () => {
    const version = {
      object: "openapi-spec-version",
      id: "v1",
      url: "https://x",
      urls: { location: "https://y" },
    };
    expect(parseSpecVersion(version).id).toBe("v1");
    expect(() => parseSpecVersion({ ...version, url: undefined })).toThrow("body.url is missing");
  });

  it("requires the content's filesystem, of any shape", () => {
    expect(parseSpecVersionContent({ filesystem: { "a.yaml": {} }, url: 3 })).toEqual({
      filesystem: { "a.yaml": {} },
    });
    expect(parseSpecVersionContent({ filesystem: [] })).toEqual({ filesystem: [] });
    expect(parseSpecVersionContent({ filesystem: null })).toEqual({ filesystem: null });
    expect(() => parseSpecVersionContent({ url: "https://x" })).toThrow("body.filesystem is missing");
    expect(() => parseSpecVersionContent(JSON.parse('{"__proto__": {"filesystem": []}}'))).toThrow(
      "body.filesystem is missing",
    );
    expect(() => parseSpecVersionContent([])).toThrow("body is an array, expected an object");
  });

  it("reads the filesystem as GitBook's parser writes it", () => {
    const entry = {
      dir: ".",
      filename: "openapi.json",
      isEntrypoint: true,
      references: [],
      specification: { openapi: "3.1.0" },
      extra: 1,
    };
    expect(readVersionFiles([entry])).toEqual({
      kind: "files",
      entries: [
        {
          dir: ".",
          filename: "openapi.json",
          isEntrypoint: true,
          references: [],
          specification: { openapi: "3.1.0" },
        },
      ],
    });
    expect(readVersionFiles([])).toEqual({ kind: "files", entries: [] });
  });

  it("keeps any other filesystem as unknown, with the first problem, and never throws", () => {
    const entry = { dir: ".", filename: "a", isEntrypoint: true, references: [], specification: {} };
    const cases: [unknown, string][] = [
      [{ "openapi.yaml": {} }, "the filesystem is an object, not a list of files"],
      [null, "the filesystem is null, not a list of files"],
      [undefined, "the filesystem is missing, not a list of files"],
      ["x", 'the filesystem is the string "x", not a list of files'],
      [[entry, null], "file 2 is null, not an object"],
      [[[entry]], "file 1 is an array, not an object"],
      [[{ ...entry, dir: 1 }], "file 1 has a dir that is a number"],
      [[{ ...entry, filename: undefined }], "file 1 has a filename that is missing"],
      [[{ ...entry, isEntrypoint: "true" }], 'file 1 has an isEntrypoint that is the string "true"'],
      [[{ ...entry, references: "b.yaml" }], "file 1 has references that are not a list of names"],
      [[{ ...entry, references: [1] }], "file 1 has references that are not a list of names"],
      [[{ dir: ".", filename: "a", isEntrypoint: true, references: [] }], "file 1 has no specification"],
    ];
    for (const [filesystem, problem] of cases) {
      expect(readVersionFiles(filesystem)).toEqual({ kind: "unknown", problem });
    }
  });

  it("reads only an entry's own fields, never inherited ones", () => {
    const hostile = JSON.parse(
      '{"__proto__": {"dir": ".", "filename": "a", "isEntrypoint": true, "references": [], "specification": {}}}',
    );
    expect(readVersionFiles([hostile])).toEqual({
      kind: "unknown",
      problem: "file 1 has a dir that is missing",
    });
    const inherited = Object.create({ specification: {} });
    Object.assign(inherited, { dir: ".", filename: "a", isEntrypoint: true, references: [] });
    expect(readVersionFiles([inherited])).toEqual({
      kind: "unknown",
      problem: "file 1 has no specification",
    });
  });

  it("reads the organization list", () => {
    const organization = {
      object: "organization",
      id: "o1",
      title: "Acme",
      urls: { location: "l", app: "a" },
    };
    expect(parseOrganizationList({ organizations: [organization] })).toEqual([organization]);
    expect(() => parseOrganizationList({ orgs: [] })).toThrow("body.organizations is missing");
    expect(() => parseOrganizationList({ organizations: [{ ...organization, title: 1 }] })).toThrow(
      "body.organizations[0].title is a number",
    );
  });
});

describe("parseErrorBody", () => {
  it("reads the service's error shape and tolerates others", () => {
    expect(parseErrorBody({ error: { code: 404, message: "Not found " } })).toEqual({
      code: 404,
      message: "Not found",
    });
    expect(parseErrorBody({ message: "plain" })).toEqual({ message: "plain" });
    expect(parseErrorBody({ error: "oops" })).toEqual({ message: "oops" });
    expect(parseErrorBody("<html>")).toEqual({});
    expect(parseErrorBody({ error: { code: {}, message: "" } })).toEqual({});
  });
});
