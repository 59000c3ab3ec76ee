import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyDocument } from "../../src/core/discovery/classify.ts";
import { declaresSpecKey } from "../../src/core/discovery/declares.ts";
import { parseText } from "../../src/core/discovery/parse.ts";
import { isCandidatePath, mayDeclareSpec } from "../../src/core/discovery/prefilter.ts";
import { lineAndColumn } from "../../src/core/documents/locate.ts";

describe("classifyDocument", () => {
  it.each([
    [{ openapi: "3.0.0" }, "openapi"],
    [{ openapi: "3.1.1", info: {} }, "openapi"],
    [{ swagger: "2.0" }, "swagger"],
  ])("accepts %j as %s", (document, flavor) => {
    expect(classifyDocument(document)).toMatchObject({ kind: "spec", flavor });
  });

  it.each([
    [null],
    [[{ openapi: "3.0.0" }]],
    ["openapi: 3.0.0"],
    [{ openapi: "2.0" }],
    [{ openapi: { enabled: true } }],
    [{ swagger: "1.2" }],
    [{ asyncapi: "3.0.0" }],
    [{ $schema: "https://json-schema.org/draft/2020-12/schema" }],
  ])("rejects %j", (document) => {
    expect(classifyDocument(document).kind).toBe("other");
  });

  it("flags a number-valued version as suspicious", () => {
    expect(classifyDocument({ openapi: 3.1 })).toMatchObject({ kind: "other", suspicious: true });
  });
});

describe("prefilter", () => {
  it("selects .yaml, .yml and .json in any case", () => {
    expect(["a.yaml", "b/c.YML", "d.Json"].every(isCandidatePath)).toBe(true);
    expect(["a.yaml.bak", "b.md", "json", "c.jsonc"].some(isCandidatePath)).toBe(false);
  });

  it("never rules out a text that contains a top-level openapi or swagger key (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("openapi", "swagger"), (value, key) => {
        const text = JSON.stringify({ info: value, [key]: "3.0.0" });
        expect(mayDeclareSpec(Buffer.from(text))).toBe(true);
      }),
    );
  });

  it("rules out text without either token", () => {
    expect(mayDeclareSpec(Buffer.from("asyncapi: 3.0.0\nOpenAPI: docs\n"))).toBe(false);
  });
});

describe("declaresSpecKey", () => {
  it("finds a YAML key at the start of a line, quoted or not", () => {
    expect(declaresSpecKey("info: [\nopenapi: 3.0.0\n")).toBe(true);
    expect(declaresSpecKey("'swagger': '2.0'\nx: [")).toBe(true);
    expect(declaresSpecKey("tools:\n  openapi: [\n")).toBe(false);
  });

  it("finds only top-level JSON keys", () => {
    expect(declaresSpecKey('{ "info": {"a": [1, {"b": "}"}]}, "openapi": "3.0.0", x }')).toBe(true);
    expect(declaresSpecKey('{"info": {"openapi": "3"}, oops}')).toBe(false);
    expect(declaresSpecKey('{"description": "say \\"openapi\\": hi", oops}')).toBe(false);
    expect(declaresSpecKey('["openapi", 1')).toBe(false);
  });
});

describe("parseText", () => {
  it("parses JSON and YAML, ignoring a byte order mark", () => {
    expect(parseText('\uFEFF{"a": 1}', "json")).toEqual({ ok: true, value: { a: 1 } });
    expect(parseText("a: 1\nb: [x]\n", "yaml")).toEqual({ ok: true, value: { a: 1, b: ["x"] } });
  });

  it("locates JSON errors by line and column", () => {
    const outcome = parseText('{\n  "a": 1\n  "b": 2\n}', "json");
    expect(outcome).toMatchObject({ ok: false, problem: { line: 3, column: 3 } });
  });

  it("locates a JSON error at the end of a truncated file", () => {
    const outcome = parseText('{\n  "a": [1,', "json");
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.problem.line).toBe(2);
  });

  it("locates YAML errors by line and column, duplicate keys included", () => {
    expect(parseText("a: 1\nb: 2\na: 3\n", "yaml")).toMatchObject({
      ok: false,
      problem: { line: 3, column: 1 },
    });
    const outcome = parseText("a:\n  - x\n - y\n", "yaml");
    expect(outcome).toMatchObject({ ok: false, problem: { line: expect.any(Number) } });
    if (!outcome.ok) expect(outcome.problem.message).toMatch(/^YAML syntax error: /);
  });

  it("reports an alias bomb instead of expanding it", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(",")}]`,
      );
    expect(parseText(lines.join("\n"), "yaml").ok).toBe(false);
  });
});

describe("lineAndColumn", () => {
  it("counts from 1", () => {
    expect(lineAndColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn("ab\ncd", 99)).toEqual({ line: 2, column: 3 });
  });
});
