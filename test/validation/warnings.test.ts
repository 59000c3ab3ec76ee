/**
 * Valid OpenAPI that GitBook may refuse is published with a warning (issue 9, item 9): an empty
 * `info.title` (11 APIs-guru specs have `"title": ""`) and a version written as a number.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { LoadedSpec } from "../../src/core/discovery/types.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { loadStructuralCheck, validateSpecDocument } from "../../src/core/validation/index.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

// The check against the official schemas loads on first use (as prepareFile loads it).
beforeAll(loadStructuralCheck);

/** A spec as the pipeline loads it, classified by the discovery rule. */
function discovered(text: string, format: "yaml" | "json", path = `api/spec.${format}`): LoadedSpec {
  return loadedSpec(text, format, path);
}

function validate(spec: LoadedSpec) {
  const logger = new MemoryLogger();
  const problems = validateSpecDocument(spec, logger);
  return { problems, warnings: logger.entries.filter((entry) => entry.level === "warning") };
}

describe("an empty info.title or info.version", () => {
  it("is published with a warning on the field, as in APIs-guru's godaddy specs (JSON)", () => {
    const text =
      '{"openapi":"3.0.0","servers":[{"url":"//api.ote-godaddy.com"}],"info":{"description":"Abuse API","title":"","version":"1.0.0"},"paths":{}}';
    const { problems, warnings } = validate(discovered(text, "json", "api/ote-godaddy.com/abuse.json"));
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      {
        level: "warning",
        message: expect.stringMatching(
          /^`info\.title` is an empty string\. OpenAPI allows it, so the spec is published and GitBook decides/,
        ),
        location: { file: "api/ote-godaddy.com/abuse.json", line: 1, column: text.indexOf('"title"') + 1 },
      },
    ]);
  });

  it("warns for a blank title and an empty version in YAML, at their lines", () => {
    const text = "openapi: 3.0.3\ninfo:\n  title: '  '\n  version: ''\npaths: {}\n";
    const { problems, warnings } = validate(discovered(text, "yaml"));
    expect(problems).toEqual([]);
    expect(warnings.map((w) => [w.location?.line, w.message.match(/`info\.\w+`/)?.[0]])).toEqual([
      [3, "`info.title`"],
      [4, "`info.version`"],
    ]);
  });

  it("still refuses a missing or null title, which OpenAPI does not allow", () => {
    const missing = validate(discovered("openapi: 3.0.3\ninfo:\n  version: '1'\npaths: {}\n", "yaml"));
    expect(missing.problems).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/missing/) }),
    ]);
    const empty = validate(
      discovered("openapi: 3.0.3\ninfo:\n  title:\n  version: '1'\npaths: {}\n", "yaml"),
    );
    expect(empty.problems).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringMatching(/empty/) }),
    ]);
  });
});

describe("a version written as a number", () => {
  it.each([
    ["swagger: 2.0\n", "yaml", "`swagger: 2.0`", "the number 2 ", 'swagger: "2.0"'],
    ["openapi: 3.1\n", "yaml", "`openapi: 3.1`", "the number 3.1 ", 'openapi: "3.1"'],
    ["openapi: 3.0 # quoted later\n", "yaml", "`openapi: 3.0`", "the number 3 ", 'openapi: "3.0"'],
    ['{"swagger": 2.0,\n', "json", '`"swagger": 2.0`', "the number 2 ", '"swagger": "2.0"'],
  ])("%j warns quoting %s as written", (head, format, written, number, quoted) => {
    const body =
      format === "json"
        ? `${head} "info": {"title": "T", "version": "1"}, "paths": {}}`
        : `${head}info:\n  title: T\n  version: '1'\npaths: {}\n`;
    const spec = discovered(body, format as "yaml" | "json");
    const { problems, warnings } = validate(spec);
    expect(problems).toEqual([]);
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning?.message).toContain(`${written} is read as ${number}`);
    expect(warning?.message).toContain("uploaded as written and GitBook decides");
    expect(warning?.message).toContain(`Write \`${quoted}\``);
    expect(warning?.location).toEqual({ file: spec.path, line: 1, column: format === "json" ? 2 : 1 });
  });

  it("gives no warning for a quoted version", () => {
    expect(
      validate(discovered("swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n", "yaml")).warnings,
    ).toEqual([]);
  });
});
