import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { findExternalRefs } from "../../src/core/bundling/index.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { checkedJsonSpec } from "../../src/core/discovery/load.ts";
import { silentLogger } from "../../src/core/logger.ts";
import { prepareFile } from "../../src/core/prepare/prepare.ts";
import { loadStructuralCheck } from "../../src/core/validation/index.ts";
import { makeTree } from "./helpers.ts";

// Loaded before JSON.parse is watched: reading its schemas is no parse of a spec.
beforeAll(loadStructuralCheck);

const roots: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
});

async function prepare(files: Record<string, string>, file: string, owner?: string) {
  const workspace = await makeTree(files);
  roots.push(workspace);
  const discovery = await discoverSpecs({ workspace, git: commandLineGit, logger: silentLogger });
  const spec = discovery.specs.find((candidate) => candidate.path === file);
  if (!spec) throw new Error(`${file} was not discovered`);
  const parse = vi.spyOn(JSON, "parse");
  const prepared = await prepareFile(
    spec,
    "api",
    { workspace, sourceUrlFor: undefined, owner },
    silentLogger,
  );
  const wholeParses = parse.mock.calls.filter(([text]) => String(text).length >= (files[file] ?? "").length);
  return { prepared, wholeParses: wholeParses.length };
}

const paths = Object.fromEntries(
  Array.from({ length: 50 }, (_, i) => [
    `/items/${i}`,
    { get: { responses: { 200: { $ref: "#/components/responses/Ok" } } } },
  ]),
);
const strictSpec = JSON.stringify(
  {
    openapi: "3.1.0",
    info: { title: "Items", version: "1.0.0" },
    paths,
    components: { responses: { Ok: { description: "ok" } } },
  },
  null,
  2,
);

describe("a strict JSON spec", () => {
  it("is sent as written, its document built once for the structural check and not kept", async () => {
    const { prepared, wholeParses } = await prepare({ "api.json": strictSpec }, "api.json");
    expect(prepared.problems).toEqual([]);
    expect(prepared.source).toEqual({ text: strictSpec });
    // The check against the official schema needs the whole document (issue 19): one parse, dropped
    // after it; nothing that the prepared spec holds keeps a parsed document.
    expect(wholeParses).toBe(1);
    expect(prepared.document).toBeUndefined();
  });

  it("is parsed once also when it is uploaded: its check and its record's digest share the parse", async () => {
    const { prepared, wholeParses } = await prepare({ "api.json": strictSpec }, "api.json", "owner");
    expect(prepared.problems).toEqual([]);
    expect(prepared.recorded?.().record?.document).toMatch(/^sha256:/);
    expect(wholeParses).toBe(1);
  });

  it("still gets its problems located in the file", async () => {
    const text = strictSpec.replace('"title": "Items"', '"title": 42');
    const { prepared } = await prepare({ "api.json": text }, "api.json");
    expect(prepared.problems).toEqual([
      expect.objectContaining({ code: "INVALID_SPEC", location: { file: "api.json", line: 4, column: 5 } }),
    ]);
  });

  it("is parsed when it references another file, and bundled", async () => {
    const text = strictSpec.replace('"#/components/responses/Ok"', '"./ok.json"');
    const { prepared, wholeParses } = await prepare(
      { "api.json": text, "ok.json": '{"description": "ok"}' },
      "api.json",
    );
    expect(prepared.problems).toEqual([]);
    expect(prepared.bundledFiles).toEqual(["api.json", "ok.json"]);
    expect(wholeParses).toBe(1);
  });

  it("that is not strict JSON is parsed to say where it breaks", async () => {
    const text = strictSpec.replace('"version": "1.0.0"', '"version": "1.0.0",');
    const { prepared } = await prepare({ "api.json": text }, "api.json");
    expect(prepared.problems).toEqual([
      expect.objectContaining({ code: "SYNTAX_ERROR", location: { file: "api.json", line: 6, column: 3 } }),
    ]);
  });
});

describe("a large file judged by its start", () => {
  const filler = (bytes: number) => "x".repeat(bytes);

  async function discovered(files: Record<string, string>) {
    const workspace = await makeTree(files);
    roots.push(workspace);
    return (await discoverSpecs({ workspace, git: commandLineGit, logger: silentLogger })).specs;
  }

  it("is a spec when its start declares one and the rest names no rival version key", async () => {
    const yaml = `openapi: 3.1.0\ninfo: {title: A, version: "1"}\npaths: {}\nx-notes: ${filler(100_000)}\n`;
    const json = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "B", version: "1" },
      paths: {},
      "x-notes": filler(100_000),
    });
    const specs = await discovered({ "a.yaml": yaml, "b.json": json });
    expect(specs.map(({ path, flavor, declaredVersion }) => ({ path, flavor, declaredVersion }))).toEqual([
      { path: "a.yaml", flavor: "openapi", declaredVersion: "3.1.0" },
      { path: "b.json", flavor: "openapi", declaredVersion: "3.0.3" },
    ]);
  });

  it("is judged whole when a rival key lies past its start", async () => {
    const json = `{"swagger": "2.0", "x-notes": "${filler(100_000)}", "openapi": "3.0.0", "info": {"title": "C", "version": "1"}, "paths": {}}`;
    const specs = await discovered({ "c.json": json });
    expect(specs.map(({ flavor, declaredVersion }) => ({ flavor, declaredVersion }))).toEqual([
      { flavor: "openapi", declaredVersion: "3.0.0" },
    ]);
  });
});

describe("a real JSON spec (GitBook's own description, npm @gitbook/api)", () => {
  const file = fileURLToPath(import.meta.resolve("@gitbook/api/spec/openapi.json"));

  it("is checked on its bytes to the same fields and document JSON.parse gives, with nothing to bundle", async () => {
    const bytes = await fs.readFile(file);
    const parsed = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    const names = { path: "openapi.json", absolutePath: file, realPath: file };
    const discovered = {
      ...names,
      format: "json",
      flavor: "openapi",
      declaredVersion: "3.0.0",
      bytes: 0,
    } as const;
    const checked = checkedJsonSpec(bytes, discovered);
    expect(checked?.declaredVersion).toBe(parsed.openapi);
    expect(checked?.field("info")).toEqual(parsed.info);
    expect(checked?.referencesOtherFiles).toBe(false);
    expect(findExternalRefs(parsed)).toEqual([]);
    expect(checked?.text).toBe(bytes.toString("utf8"));
    expect(checked?.document).toEqual(parsed);
  });
});
