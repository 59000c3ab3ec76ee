/**
 * A version written as a number (issue 9, item 9): `swagger: 2.0` and `openapi: 3.1` are specs, judged by
 * their text as written; the file is kept byte for byte. `openapi: 3` and `swagger: 2` state no version
 * plainly and stay skipped, with a warning that quotes them.
 */

import fs from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { classifyDocument } from "../../src/core/discovery/classify.ts";
import { numericVersionOf } from "../../src/core/discovery/declares.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { loaded, makeTree } from "./helpers.ts";

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function discover(files: Record<string, string>) {
  const root = await makeTree(files);
  cleanup.push(root);
  const logger = new MemoryLogger();
  return { result: await discoverSpecs({ workspace: root, git: commandLineGit, logger }), logger };
}

const INFO_YAML = "info:\n  title: T\n  version: '1'\npaths: {}\n";

describe("discovery of versions written as numbers", () => {
  it("takes swagger: 2.0, openapi: 3.0/3.1/3.10 and JSON numbers for specs, text kept as written", async () => {
    const files = {
      "swagger.yaml": `swagger: 2.0\n${INFO_YAML}`,
      "three-oh.yaml": `openapi: 3.0\n${INFO_YAML}`,
      "three-one.yml": `# leading comment\nopenapi: 3.1   # unquoted\n${INFO_YAML}`,
      "three-ten.yaml": `openapi: 3.10\n${INFO_YAML}`,
      "crlf.yaml": `openapi: 3.1\r\n${INFO_YAML.replaceAll("\n", "\r\n")}`,
      "flow.yaml": "{openapi: 3.1, info: {title: T, version: '1'}, paths: {}}\n",
      "bom.yaml": `\uFEFFswagger: 2.0\n${INFO_YAML}`,
      "legacy.json": '{\n  "swagger": 2.0,\n  "info": {"title": "T", "version": "1"},\n  "paths": {}\n}\n',
    };
    const { result, logger } = await discover(files);
    expect(result.specs.map((s) => [s.path, s.flavor, s.declaredVersion])).toEqual([
      ["bom.yaml", "swagger", "2.0"],
      ["crlf.yaml", "openapi", "3.1"],
      ["flow.yaml", "openapi", "3.1"],
      ["legacy.json", "swagger", "2.0"],
      ["swagger.yaml", "swagger", "2.0"],
      ["three-oh.yaml", "openapi", "3.0"],
      ["three-one.yml", "openapi", "3.1"],
      ["three-ten.yaml", "openapi", "3.10"],
    ]);
    for (const spec of result.specs) expect(loaded(spec).text).toBe(files[spec.path as keyof typeof files]);
    expect(logger.messages("warning")).toEqual([]);
  });

  it("skips openapi: 3 and swagger: 2 with a warning that quotes them", async () => {
    const { result, logger } = await discover({
      "three.yaml": `openapi: 3\n${INFO_YAML}`,
      "two.json": '{"swagger": 2, "info": {"title": "T", "version": "1"}}',
    });
    expect(result.specs).toEqual([]);
    expect(logger.entries.filter((e) => e.level === "warning")).toEqual([
      {
        level: "warning",
        message: expect.stringContaining("three.yaml: its `openapi` is the number 3 (written `openapi: 3`)"),
        location: { file: "three.yaml", line: 1 },
      },
      {
        level: "warning",
        message: expect.stringContaining('two.json: its `swagger` is the number 2 (written `"swagger": 2`)'),
        location: { file: "two.json", line: 1 },
      },
    ]);
  });
});

describe("numericVersionOf", () => {
  it("finds the source text and position of the top-level key only", () => {
    const text = "info:\n  openapi: 3.0\nopenapi: 3.1\n";
    expect(numericVersionOf(text, "yaml", "openapi", 3.1)).toEqual({
      source: "3.1",
      written: "openapi: 3.1",
      line: 3,
      column: 1,
    });
    const json = '{"info": {"swagger": 1.0}, "swagger": 2.0}';
    expect(numericVersionOf(json, "json", "swagger", 2)).toMatchObject({
      source: "2.0",
      line: 1,
      column: 28,
    });
  });

  it("refuses a source text that is not a plain number of the parsed value", () => {
    expect(numericVersionOf("openapi: 0x3\n", "yaml", "openapi", 3)).toBeUndefined();
    expect(numericVersionOf("openapi: .inf\n", "yaml", "openapi", Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(numericVersionOf('{"openapi": 3.1, "openapi": 3.2}', "json", "openapi", 3.2)).toBeUndefined();
  });

  it("lets classifyDocument accept only texts that state a version", () => {
    const lookup = (source: string) => () => ({ source, written: `openapi: ${source}`, line: 1, column: 1 });
    expect(classifyDocument({ openapi: 3.1 }, lookup("3.1"))).toMatchObject({
      kind: "spec",
      declaredVersion: "3.1",
    });
    expect(classifyDocument({ openapi: 3.1 }, lookup("3.1e0"))).toMatchObject({
      kind: "other",
      suspicious: true,
    });
    expect(classifyDocument({ openapi: 3.1 })).toMatchObject({ kind: "other", suspicious: true });
    expect(classifyDocument({ swagger: 2 }, lookup("2.0"))).toMatchObject({
      kind: "spec",
      flavor: "swagger",
    });
    expect(classifyDocument({ swagger: 2 }, lookup("2.00"))).toMatchObject({ kind: "other" });
  });
});
