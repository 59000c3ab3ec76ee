/**
 * Files meant as specs that cannot be read as they are: each is named with what to do, never skipped in
 * silence (issue 16, item 2). Through discovery, as a run meets them.
 */

import fs from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { makeTree, OPENAPI_YAML } from "./helpers.ts";

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function discover(files: Record<string, string | Buffer>) {
  const root = await makeTree(files);
  cleanup.push(root);
  const logger = new MemoryLogger();
  return {
    ...(await discoverSpecs({ workspace: root, git: commandLineGit, patterns: ["**"], logger })),
    logger,
  };
}

function utf32(text: string, littleEndian: boolean): Buffer {
  const body = Buffer.alloc(text.length * 4);
  [...text].forEach((char, index) => {
    const code = char.codePointAt(0) as number;
    if (littleEndian) body.writeUInt32LE(code, index * 4);
    else body.writeUInt32BE(code, index * 4);
  });
  const mark = littleEndian ? [0xff, 0xfe, 0, 0] : [0, 0, 0xfe, 0xff];
  return Buffer.concat([Buffer.from(mark), body]);
}

describe("near misses", () => {
  it.each([
    ["UTF-16LE", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(OPENAPI_YAML, "utf16le")])],
    ["UTF-16BE", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(OPENAPI_YAML, "utf16le").swap16()])],
    ["UTF-32LE", utf32(OPENAPI_YAML, true)],
    ["UTF-32BE", utf32(OPENAPI_YAML, false)],
  ])("a spec saved as %s is a broken spec that names its encoding and the fix", async (encoding, bytes) => {
    const { specs, broken } = await discover({ "openapi.yaml": bytes });
    expect(specs).toEqual([]);
    expect(broken).toHaveLength(1);
    expect(broken[0]?.problem.message).toContain(`encoded as ${encoding}`);
    expect(broken[0]?.problem.message).toContain(`iconv -f ${encoding} -t UTF-8`);
  });

  it("a UTF-16 file that is not a spec is still nothing to us", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("name: tool\n", "utf16le")]);
    const { specs, broken } = await discover({ "tool.yaml": bytes });
    expect([specs, broken]).toEqual([[], []]);
  });

  it("a JSON spec with comments is broken, located at its first comment", async () => {
    const text =
      '// Generated.\n{\n  "openapi": "3.1.0", // the version\n  "info": {"title": "A", "version": "1"},\n  /* soon */ "paths": {}\n}\n';
    const { broken } = await discover({
      "api.json": text,
      "other.json": '// {"a": "http://x//y"}\n{"a": 1}',
    });
    expect(broken.map((b) => [b.path, b.problem.line, b.problem.column])).toEqual([["api.json", 1, 1]]);
    expect(broken[0]?.problem.message).toMatch(/JSON with comments.*remove the comments/);
  });

  it("a comment-like text inside a JSON string is not a comment", async () => {
    const text = '{"openapi": "3.1.0", "info": {"title": "A // B /* C", "version": "1"}, "paths": {}}';
    const { specs, broken } = await discover({ "api.json": text });
    expect(specs.map((s) => s.path)).toEqual(["api.json"]);
    expect(broken).toEqual([]);
  });

  it.each([
    [
      "openapi: 4.0.0",
      'its `openapi` is "4.0.0", a version GitBook does not read (3.x, or `swagger: "2.0"`)',
    ],
    ["openapi: '2.0'", 'its `openapi` is "2.0", a version GitBook does not read (3.x, or `swagger: "2.0"`)'],
    ["swagger: '1.2'", 'its `swagger` is "1.2", not "2.0"'],
  ])("`%s` is skipped with a warning on the file, not in silence", async (line, reason) => {
    const { specs, logger } = await discover({
      "api.yaml": `${line}\ninfo: {title: A, version: '1'}\npaths: {}\n`,
    });
    expect(specs).toEqual([]);
    expect(logger.entries).toContainEqual({
      level: "warning",
      message: `Skipped api.yaml: ${reason}.`,
      location: { file: "api.yaml", line: 1 },
    });
  });
});
