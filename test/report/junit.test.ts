import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { renderJUnit } from "../../src/core/report/junit.ts";
import type { SpecResult } from "../../src/core/result.ts";

interface Parsed {
  testsuites: {
    "@_tests": string;
    "@_failures": string;
    "@_skipped": string;
    "@_time": string;
    testsuite: {
      "@_name": string;
      "@_tests": string;
      testcase: Array<{
        "@_classname": string;
        "@_name": string;
        "@_time"?: string;
        failure?: { "@_message": string; "@_type": string; "#text"?: string };
        skipped?: { "@_message"?: string } | string;
        "system-out"?: string;
      }>;
    };
  };
}

function parse(xml: string): Parsed {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    htmlEntities: true,
    isArray: (name) => name === "testcase",
  });
  return parser.parse(xml) as Parsed;
}

const published: SpecResult = {
  file: "api/pets.yaml",
  slug: "pets",
  status: "published",
  operation: "update",
  versionId: "v1",
  appUrl: "https://app.gitbook.com/o/demo/openapi/pets",
  errors: [],
  durationMs: 1234,
};

describe("renderJUnit", () => {
  it("writes one test case per specification, classname the file and name the slug", () => {
    const results: SpecResult[] = [
      published,
      {
        file: "api/orders.yaml",
        slug: "orders",
        status: "failed",
        errorCode: "PARSE_ERROR",
        errors: ["line 3: bad indentation", "line 9: duplicate key"],
        durationMs: 20,
      },
      { file: "api/slow.yaml", slug: "slow", status: "timed-out", errors: [], durationMs: 600_000 },
      { file: "api/fork.yaml", slug: "fork", status: "skipped", errors: ["no token in a fork"] },
    ];
    const doc = parse(renderJUnit(results));
    expect(doc.testsuites["@_tests"]).toBe("4");
    expect(doc.testsuites["@_failures"]).toBe("2");
    expect(doc.testsuites["@_skipped"]).toBe("1");
    expect(doc.testsuites["@_time"]).toBe("601.254");
    const cases = doc.testsuites.testsuite.testcase;
    expect(cases.map((c) => [c["@_classname"], c["@_name"], c["@_time"]])).toEqual([
      ["api/pets.yaml", "pets", "1.234"],
      ["api/orders.yaml", "orders", "0.02"],
      ["api/slow.yaml", "slow", "600"],
      ["api/fork.yaml", "fork", undefined],
    ]);
    expect(cases[0]?.failure).toBeUndefined();
    expect(cases[0]?.["system-out"]).toContain("app: https://app.gitbook.com/o/demo/openapi/pets");
    expect(cases[1]?.failure).toEqual({
      "@_message": "line 3: bad indentation",
      "@_type": "PARSE_ERROR",
      "#text": "line 3: bad indentation\nline 9: duplicate key",
    });
    expect(cases[2]?.failure?.["@_type"]).toBe("timed-out");
    expect(cases[2]?.failure?.["@_message"]).toMatch(/timeout ran out/);
    expect(cases[3]?.skipped).toEqual({ "@_message": "no token in a fork" });
  });

  it("says in a reviewed spec's output how many API changes it has, and where", () => {
    const reviewed: SpecResult = {
      ...published,
      changes: {
        against: "base commit",
        breaking: [{ kind: "operation-removed", operation: "DELETE /pets/{id}", message: "removed" }],
        other: [],
        allowed: [],
      },
    };
    const [testCase] = parse(renderJUnit([reviewed])).testsuites.testsuite.testcase;
    expect(testCase?.failure).toBeUndefined();
    expect(testCase?.["system-out"]).toContain("API changes: 1 breaking in 1 operation, 0 other changes");
  });

  it("escapes hostile file names and messages so that the document stays well-formed", () => {
    const hostile = `a<b>&c"d'e]]>f\u0001g\u001bh\r\ni\ttab\ud800`;
    const results: SpecResult[] = [
      {
        file: `evil/${hostile}.yaml`,
        slug: "evil",
        status: "failed",
        errorCode: `<code "x">&`,
        errors: [`first ${hostile}`, "<![CDATA[ second ]]>"],
      },
    ];
    const xml = renderJUnit(results);
    expect(xml).not.toContain("]]>f");
    expect(xml).not.toContain("<![CDATA[");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const [testcase] = parse(xml).testsuites.testsuite.testcase;
    const visible = `a<b>&c"d'e]]>f\\u0001g\\u001bh\r\ni\ttab\\ud800`;
    expect(testcase?.["@_classname"]).toBe(`evil/${visible}.yaml`);
    expect(testcase?.failure?.["@_type"]).toBe(`<code "x">&`);
    expect(testcase?.failure?.["@_message"]).toBe(`first ${visible}`);
    expect(testcase?.failure?.["#text"]).toBe(`first ${visible}\n<![CDATA[ second ]]>`);
  });

  it("keeps a pair of surrogates (an emoji) as it is", () => {
    const xml = renderJUnit([{ ...published, file: "api/🐶.yaml" }]);
    expect(parse(xml).testsuites.testsuite.testcase[0]?.["@_classname"]).toBe("api/🐶.yaml");
  });

  it("writes an empty suite for a run without specifications", () => {
    const doc = parse(renderJUnit([], { suiteName: "docs & specs" }));
    expect(doc.testsuites.testsuite["@_name"]).toBe("docs & specs");
    expect(doc.testsuites.testsuite["@_tests"]).toBe("0");
    expect(doc.testsuites["@_time"]).toBe("0");
  });
});
