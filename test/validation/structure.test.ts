/**
 * Structural validation (src/core/validation/structure.ts through validateSpecDocument): invalid
 * documents of each OpenAPI version fail with one short message at the offending node's file:line:col.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { LocatedProblem } from "../../src/core/discovery/types.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import {
  loadStructuralCheck,
  MAX_PROBLEMS_PER_FILE,
  validateSpecDocument,
} from "../../src/core/validation/index.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

// The check against the official schemas loads on first use (as prepareFile loads it).
beforeAll(loadStructuralCheck);

/** Every finding as a problem, as `strict: true` (and the `validate` command) reports them. */
function problemsOf(text: string, format: "yaml" | "json" = "yaml", logger = new MemoryLogger()) {
  return validateSpecDocument(loadedSpec(text, format, `api/spec.${format}`), logger, { strict: true });
}

/** `line:column message` of each problem, for compact expectations. */
const brief = (problems: LocatedProblem[]) => problems.map((p) => `${p.line}:${p.column} ${p.message}`);

describe("OpenAPI 3.0", () => {
  it("refuses `responses` that is not a mapping, at the `responses` key", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      '      responses: "not an object"',
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      '6:7 `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the string "not an object".',
    ]);
  });

  it("refuses a missing required field, at the object that lacks it", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          content: {}",
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      "7:9 `responses[200]` is missing the required field `description`.",
    ]);
  });

  it("refuses a `$ref` that is not a string (family refs), at the `$ref` key", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          $ref: 42",
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      "8:11 `$ref` must be a string: a URI reference such as `#/components/schemas/Pet`; it is the number 42.",
    ]);
  });

  it("names a misspelt schema type with the allowed ones, in JSON too", () => {
    const text = `{
  "openapi": "3.0.3",
  "info": {"title": "T", "version": "1"},
  "paths": {},
  "components": {"schemas": {"Pet": {"type": "strng"}}}
}
`;
    const problems = problemsOf(text, "json");
    expect(problems).toEqual([expect.objectContaining({ file: "api/spec.json", line: 5, column: 38 })]);
    expect(problems[0]?.message).toMatch(
      /^`type` must be one of "array", .*"string"; it is the string "strng"\.$/,
    );
  });

  it("locates a problem of a list's item at that item, in JSON too", () => {
    const text = `{
  "openapi": "3.0.3",
  "info": {"title": "T", "version": "1"},
  "paths": {"/pets": {"get": {
    "parameters": [
      {"name": "a", "in": "query"},
      {"name": "b", "in": "nowhere"}
    ],
    "responses": {"200": {"description": "ok"}}
  }}}
}
`;
    expect(brief(problemsOf(text, "json"))).toEqual([
      "6:7 `parameters[0]` must have at least one of `schema`, `content`.",
      '7:21 `in` must be one of "path", "query", "header", "cookie"; it is the string "nowhere".',
    ]);
  });

  it("refuses an unknown top-level field and a document without paths", () => {
    const text = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\ndefinitions: {}\n";
    expect(brief(problemsOf(text))).toEqual([
      "1:1 the document is missing the required field `paths`.",
      "3:1 the document has an unknown field `definitions` (extensions start with `x-`).",
    ]);
  });
});

describe("component names (OpenAPI 3.1)", () => {
  it("refuses a component name outside the allowed characters once, at that key, naming it", () => {
    const text = [
      "openapi: 3.1.0",
      "info: {title: T, version: '1'}",
      "components:",
      "  schemas:",
      "    Pet: {type: object}",
      "    bad name: {type: object}",
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      "6:5 `schemas` has the key `bad name`, which must match ^[a-zA-Z0-9._-]+$.",
    ]);
  });
});

describe("a document the check cannot follow", () => {
  it("is not called valid in silence: a 2,000-deep 3.0 schema is a warning that its structure was not checked", () => {
    const depth = 2000;
    const schema = `${'{"type":"array","items":'.repeat(depth)}{"type":"strin"}${"}".repeat(depth)}`;
    const text = `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":${schema}}}}`;
    const logger = new MemoryLogger();
    expect(problemsOf(text, "json", logger)).toEqual([]);
    expect(logger.entries.filter((e) => e.level === "warning")).toEqual([
      {
        level: "warning",
        message: expect.stringContaining("not checked against the OpenAPI schema: it nests too deeply"),
        location: { file: "api/spec.json", line: 1 },
      },
    ]);
  });
});

describe("hostile keys", () => {
  it("quotes a key with a line break or a workflow command as JSON, on one line, and cuts a long one", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths: {}",
      '"bad\\n::error file=x::pwned": 1',
      `${"k".repeat(5000)}: 1`,
      "",
    ].join("\n");
    const problems = brief(problemsOf(text));
    expect(problems).toEqual([
      '4:1 the document has an unknown field `"bad\\n::error file=x::pwned"` (extensions start with `x-`).',
      `5:1 the document has an unknown field \`${"k".repeat(79)}…\` (extensions start with \`x-\`).`,
    ]);
    for (const problem of problems) expect(problem).not.toMatch(/[\r\n]/);
  });
});

describe("references inside the document", () => {
  it("refuses a `#/…` reference to nothing, at its `$ref`, but never reads literal data as one", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200': {$ref: '#/components/responses/Gone'}",
      "        '404':",
      "          description: missing",
      "          content:",
      "            application/json:",
      "              schema: {$ref: '#/components/schemas/Err'}",
      "              example: {$ref: '#/not/a/reference'}",
      "components:",
      "  schemas:",
      "    Err: {type: object}",
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      '7:17 `$ref` "#/components/responses/Gone" points to nothing in this document.',
    ]);
    // GitBook cannot resolve it: a problem without `strict` too.
    const logger = new MemoryLogger();
    const spec = loadedSpec(text, "yaml", "api/spec.yaml");
    expect(brief(validateSpecDocument(spec, logger))).toEqual([
      '7:17 `$ref` "#/components/responses/Gone" points to nothing in this document.',
    ]);
    expect(logger.messages("warning")).toEqual([]);
  });
});

describe("the branch that was meant (oneOf alternatives)", () => {
  const at = (text: string) => brief(problemsOf(text));

  it("refuses a loop of `$ref`s that names no object, at each of its `$ref`s, but not a recursive schema", () => {
    const text = [
      "openapi: 3.1.0",
      "info: {title: T, version: '1'}",
      "components:",
      "  schemas:",
      '    A: {$ref: "#/components/schemas/B"}',
      '    B: {$ref: "#/components/schemas/A"}',
      '    C: {$ref: "#/components/schemas/A"}',
      '    Self: {$ref: "#/components/schemas/Self"}',
      "    Node:",
      "      type: object",
      '      properties: {child: {$ref: "#/components/schemas/Node"}}',
      "",
    ].join("\n");
    const loop = "leads back to itself through `$ref`s only: it stands for no object.";
    expect(brief(problemsOf(text))).toEqual([
      `5:9 \`$ref\` "#/components/schemas/B" ${loop}`,
      `6:9 \`$ref\` "#/components/schemas/A" ${loop}`,
      `8:12 \`$ref\` "#/components/schemas/Self" ${loop}`,
    ]);
  });

  it("cuts a long `$ref` to nothing in its message", () => {
    const ref = `#/components/schemas/${"x".repeat(10_000)}`;
    const text = `openapi: 3.1.0\ninfo: {title: T, version: '1'}\ncomponents:\n  schemas:\n    A: {$ref: "${ref}"}\n`;
    expect(brief(problemsOf(text))).toEqual([
      `5:9 \`$ref\` ${JSON.stringify(`${ref.slice(0, 199)}…`)} points to nothing in this document.`,
    ]);
  });

  it("names every value a selector takes when no branch takes it", () => {
    const text =
      "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  securitySchemes:\n    auth:\n      type: bearer\n";
    expect(at(text)).toEqual([
      '7:7 `type` must be one of "apiKey", "http", "oauth2", "openIdConnect"; it is the string "bearer".',
    ]);
  });

  it("says what the branch the selector picked needs (a path parameter is required)", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets/{id}:",
      "    get:",
      "      parameters:",
      "        - {name: id, in: path, required: false, schema: {type: string}}",
      "      responses: {'200': {description: ok}}",
      "",
    ].join("\n");
    expect(at(text)).toEqual(["7:32 a path parameter (`in: path`) needs `required: true`; it is false."]);
  });

  it("reports a 2.0-style field of a 3.0 response without the Reference branch's word", () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          schema: {type: string}",
      "",
    ].join("\n");
    expect(at(text)).toEqual([
      "9:11 `responses[200]` has an unknown field `schema` (extensions start with `x-`).",
    ]);
  });

  it("reports a 3.0-style field of a 2.0 response, not the fields a Reference would refuse", () => {
    const text = [
      'swagger: "2.0"',
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content: {}",
      "",
    ].join("\n");
    expect(at(text)).toEqual([
      "9:11 `responses[200]` has an unknown field `content` (extensions start with `x-`).",
    ]);
  });

  it("prefers the allowed types to a list in 2.0's `type: strin`", () => {
    const text =
      "swagger: \"2.0\"\ninfo: {title: T, version: '1'}\npaths: {}\ndefinitions:\n  Pet: {type: strin}\n";
    expect(at(text)).toEqual([
      '5:9 `type` must be one of "array", "boolean", "integer", "null", "number", "object", "string"; it is the string "strin".',
    ]);
  });
});

describe("Swagger 2.0", () => {
  it("refuses a response key that is not a status code, at that key", () => {
    const text = [
      'swagger: "2.0"',
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        ok: {description: fine}",
      "",
    ].join("\n");
    expect(brief(problemsOf(text))).toEqual([
      "7:9 `responses` has an unknown field `ok` (keys are status codes (`200`, `4XX`) or `default`).",
    ]);
  });

  it("refuses a query parameter without its type, at the parameter in the list", () => {
    const text = [
      'swagger: "2.0"',
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      parameters:",
      "        - name: limit",
      "          in: query",
      "      responses:",
      "        '200': {description: fine}",
      "",
    ].join("\n");
    const problems = problemsOf(text);
    expect(problems.map((p) => [p.line, p.column])).toContainEqual([7, 11]);
    expect(problems.map((p) => p.message)).toContain("`parameters[0]` is missing the required field `type`.");
    // Never the body branch's selector: `in: query` is not wrong, the missing `type` is.
    expect(problems.map((p) => p.message).join("\n")).not.toMatch(/`in` must be/);
  });

  it("leaves `info` to its own check: a numeric title is said once", () => {
    const problems = problemsOf("swagger: '2.0'\ninfo: {title: 5, version: '1'}\npaths: {}\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/`info.title` must be a non-empty string/);
  });
});

describe("OpenAPI 3.1", () => {
  it("refuses `responses` written as a list", () => {
    const text =
      "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses: []\n";
    expect(brief(problemsOf(text))).toEqual([
      "6:7 `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is a list.",
    ]);
  });

  it("refuses a path that does not start with a slash, at that path", () => {
    const text = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  pets: {}\n";
    expect(brief(problemsOf(text))).toEqual([
      "4:3 `paths` has an unknown field `pets` (each path starts with `/`).",
    ]);
  });

  it("says what a document needs at least, once", () => {
    expect(brief(problemsOf("openapi: 3.1.0\ninfo: {title: T, version: '1'}\n"))).toEqual([
      "1:1 the document must have at least one of `paths`, `components`, `webhooks`.",
    ]);
  });
});

describe("reporting", () => {
  it("caps the problems of one file and counts the rest", () => {
    const paths = Array.from(
      { length: MAX_PROBLEMS_PER_FILE + 7 },
      (_, i) => `  /p${i}:\n    get: {responses: 1}`,
    );
    const text = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n${paths.join("\n")}\n`;
    const problems = problemsOf(text);
    expect(problems).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(problems.at(-1)?.message).toBe(
      "and 7 more structural problems (fix these and run again to see them).",
    );
    expect(problems[0]).toMatchObject({ line: 5, column: 11 });
  });

  it("reports a finding as a warning at the same place without strict, and what GitBook cannot take as a problem", () => {
    const text = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get: {responses: 1}\n";
    const logger = new MemoryLogger();
    const spec = loadedSpec(text, "yaml", "api/spec.yaml");
    expect(validateSpecDocument(spec, logger)).toEqual([]);
    expect(logger.entries.filter((e) => e.level === "warning")).toEqual([
      {
        level: "warning",
        message: expect.stringMatching(/^`responses` must be a mapping/),
        location: { file: "api/spec.yaml", line: 5, column: 11 },
      },
    ]);
    // A `$ref` that is not a text cannot be resolved: it still fails.
    const refs =
      "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: 1}\n";
    const spec2 = loadedSpec(refs, "yaml", "api/spec.yaml");
    expect(validateSpecDocument(spec2, new MemoryLogger())).toEqual([
      expect.objectContaining({ line: 7, message: expect.stringMatching(/^`\$ref` must be a string/) }),
    ]);
  });
});

describe("a tag's `parent`, which GitBook reads in any version", () => {
  const withParent = (version: string) =>
    [
      `openapi: ${version}`,
      "info: {title: T, version: '1'}",
      "tags:",
      "  - name: pets",
      "  - name: cats",
      "    parent: pets",
      "paths: {}",
      "",
    ].join("\n");

  it("is a warning at the key before OpenAPI 3.2, never an error", () => {
    for (const version of ["3.0.3", "3.1.0"]) {
      const logger = new MemoryLogger();
      expect(problemsOf(withParent(version), "yaml", logger)).toEqual([]);
      expect(logger.messages("warning")).toEqual([expect.stringContaining("Write `x-parent`")]);
    }
  });

  it("is silent in OpenAPI 3.2, where it is a field of the Tag Object", () => {
    const logger = new MemoryLogger();
    expect(problemsOf(withParent("3.2.0"), "yaml", logger)).toEqual([]);
    expect(logger.messages("warning")).toEqual([]);
  });

  it("is still an error for any other unknown field of a tag", () => {
    const text = withParent("3.1.0").replace("parent: pets", "parnet: pets");
    expect(brief(problemsOf(text))).toEqual([expect.stringMatching(/^6:5 .*unknown field `parnet`/)]);
  });
});
