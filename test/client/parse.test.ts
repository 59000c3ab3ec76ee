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
} from "../../src/client/parse.ts";

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

  it("requires the content's filesystem", () => {
    expect(parseSpecVersionContent({ filesystem: { "a.yaml": {} }, url: 3 })).toEqual({
      filesystem: { "a.yaml": {} },
    });
    expect(() => parseSpecVersionContent({ url: "https://x" })).toThrow("body.filesystem is missing");
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
