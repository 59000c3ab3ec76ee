import fs from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { discoverSpecs } from "../../src/discovery/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { prepareFile } from "../../src/sync/prepare.ts";
import { makeTree } from "./helpers.ts";

const roots: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
});

async function prepare(files: Record<string, string>, file: string) {
  const workspace = await makeTree(files);
  roots.push(workspace);
  const discovery = await discoverSpecs({ workspace, logger: silentLogger });
  const spec = discovery.specs.find((candidate) => candidate.path === file);
  if (!spec) throw new Error(`${file} was not discovered`);
  const parse = vi.spyOn(JSON, "parse");
  const prepared = await prepareFile(spec, "api", { workspace, sourceUrlFor: undefined }, silentLogger);
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
  it("is checked and sent as written without its document ever being built", async () => {
    const { prepared, wholeParses } = await prepare({ "api.json": strictSpec }, "api.json");
    expect(prepared.problems).toEqual([]);
    expect(prepared.source).toEqual({ text: strictSpec });
    expect(wholeParses).toBe(0);
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
