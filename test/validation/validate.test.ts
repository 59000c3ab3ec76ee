import { beforeAll, describe, expect, it } from "vitest";
import type { LoadedSpec } from "../../src/core/discovery/types.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { infoVersionOf, loadStructuralCheck, validateSpecDocument } from "../../src/core/validation/index.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

// The check against the official schemas loads on first use (as prepareFile loads it).
beforeAll(loadStructuralCheck);

/** A loaded spec, as the pipeline loads it (a strict JSON spec: checked, not parsed). */
function spec(text: string, format: "yaml" | "json", path = `api/openapi.${format}`): LoadedSpec {
  return loadedSpec(text, format, path);
}

describe("validateSpecDocument", () => {
  it("accepts a document with info.title and info.version", () => {
    expect(
      validateSpecDocument(spec("openapi: 3.1.0\ninfo:\n  title: A\n  version: 1.0.0\npaths: {}\n", "yaml")),
    ).toEqual([]);
    expect(
      validateSpecDocument(spec('{"openapi":"3.0.0","info":{"title":"A","version":"2"},"paths":{}}', "json")),
    ).toEqual([]);
  });

  it("reports a missing info at line 1", () => {
    expect(validateSpecDocument(spec("openapi: 3.1.0\npaths: {}\n", "yaml"))).toEqual([
      {
        file: "api/openapi.yaml",
        line: 1,
        column: 1,
        message: expect.stringMatching(/no `info` section; add `info` with a `title` and a `version`/),
      },
    ]);
  });

  it("reports an info that is not a mapping at the info key", () => {
    const problems = validateSpecDocument(spec("openapi: 3.1.0\n\ninfo: hello\n", "yaml"));
    expect(problems).toEqual([
      expect.objectContaining({ line: 3, column: 1, message: expect.stringMatching(/mapping/) }),
    ]);
  });

  it("points at the info key for a missing field and at the field for a bad value (YAML)", () => {
    const text = "openapi: 3.1.0\ninfo:\n  title: [A]\n  description: x\n";
    expect(validateSpecDocument(spec(text, "yaml"))).toEqual([
      {
        file: "api/openapi.yaml",
        line: 3,
        column: 3,
        message: expect.stringMatching(/`info.title` .*a list/),
      },
      {
        file: "api/openapi.yaml",
        line: 2,
        column: 1,
        message: expect.stringMatching(/`info.version` is missing/),
      },
    ]);
  });

  it("locates problems in JSON without parsing it again as YAML", () => {
    const text = '{\n  "openapi": "3.0.0",\n  "x": {"info": 1},\n  "info": {\n    "title": ["A"]\n  }\n}\n';
    // The `info` check alone: the document is otherwise incomplete on purpose.
    expect(validateSpecDocument(spec(text, "json"), undefined, { structure: false })).toEqual([
      {
        file: "api/openapi.json",
        line: 5,
        column: 5,
        message: expect.stringMatching(/`info.title` .*a list/),
      },
      {
        file: "api/openapi.json",
        line: 4,
        column: 3,
        message: expect.stringMatching(/`info.version` is missing/),
      },
    ]);
  });

  it("accepts a numeric info.version, says so in the debug log, and keeps its text as written", () => {
    const yamlSpec = spec("openapi: 3.1.0\ninfo:\n  title: A\n  version: 1.10\n", "yaml");
    const logger = new MemoryLogger();
    expect(validateSpecDocument(yamlSpec, logger)).toEqual([]);
    expect(logger.messages("debug")).toEqual([expect.stringContaining("info.version is the number 1.10")]);
    expect(infoVersionOf(yamlSpec)).toBe("1.10");
    expect(infoVersionOf(spec('{"openapi": "3.0.0", "info": {"title": "A", "version": 2.0}}', "json"))).toBe(
      "2.0",
    );
    expect(infoVersionOf(spec('{"openapi": "3.0.0", "info": {"title": "A", "version": "v3"}}', "json"))).toBe(
      "v3",
    );
    expect(infoVersionOf(spec('{"openapi": "3.0.0"}', "json"))).toBeUndefined();
  });

  it("rejects a blank or null version", () => {
    const problems = validateSpecDocument(spec("openapi: 3.1.0\ninfo:\n  title: A\n  version:\n", "yaml"));
    expect(problems).toEqual([
      expect.objectContaining({ line: 4, column: 3, message: expect.stringMatching(/it is empty/) }),
    ]);
  });
});
