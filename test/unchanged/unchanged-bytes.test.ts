/**
 * An unchanged file told from its bytes (ownership.ts `digestOfFileBytes`, unchanged.ts
 * `sameFileAsHeld`): the digest of the bytes must be the very digest the full path records for the
 * text it uploads, and the record must prove everything the full path would establish, or nothing.
 */

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repositoryRoot } from "../../harness/runner/action-runner.ts";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { bundleSpec } from "../../src/core/bundling/index.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import {
  CHECKS,
  digestOfFileBytes,
  type PublishRecord,
  RECORD_KEY,
  recordOf,
  withRecord,
} from "../../src/core/ownership/ownership.ts";
import { prepareFile } from "../../src/core/prepare/prepare.ts";
import type { PreparedSpec } from "../../src/core/prepare/prepared.ts";
import { fileDigestOf } from "../../src/core/unchanged/skip-unchanged.ts";
import { type HeldPublishRecord, sameFileAsHeld } from "../../src/core/unchanged/unchanged.ts";
import { specFixture } from "../support/spec-fixture.ts";

const ownerDigest = "0123456789abcdef0123456789abcdef";
const place = { slug: "t", document: () => ({ openapi: "3.1.0" }) };
let workspace = "";
afterEach(() => rm(workspace, { recursive: true, force: true }));

/** Each file of `files` through discovery and the full local path: its prepared spec and its bytes' digest. */
async function prepared(
  files: Record<string, string | Buffer>,
): Promise<{ file: string; spec: PreparedSpec; fromBytes: string | undefined }[]> {
  workspace = await mkdtemp(path.join(tmpdir(), "unchanged-bytes-"));
  for (const [file, contents] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(workspace, file)), { recursive: true });
    await writeFile(path.join(workspace, file), contents);
  }
  const logger = new MemoryLogger();
  const discovery = await discoverSpecs({ workspace, git: commandLineGit, logger });
  const out = [];
  for (const spec of discovery.specs) {
    const full = await prepareFile(
      spec,
      "slug",
      { workspace, sourceUrlFor: undefined, owner: ownerDigest },
      logger,
    );
    out.push({ file: spec.path, spec: full, fromBytes: fileDigestOf(spec) });
  }
  return out;
}

function recordOfPrepared(spec: PreparedSpec): PublishRecord {
  const record = spec.recorded?.().record;
  if (!record) throw new Error(`${spec.file} has no record: ${JSON.stringify(spec.problems)}`);
  return record;
}

/** The real specs of test/fixtures, each bundled into one file (what a repository with one file holds). */
async function fixtureTexts(): Promise<Record<string, string>> {
  const fixtures = path.join(repositoryRoot, "test", "fixtures");
  const roots = [
    "multi-file/openapi.yaml",
    "multi-file/openapi.json",
    "openapi-starter/openapi/openapi.yaml",
  ];
  const texts: Record<string, string> = {};
  for (const root of roots) {
    const bundled = await bundleSpec(path.join(fixtures, root), { workspace: fixtures });
    expect(bundled.bundled).toBe(true);
    texts[root.replace(/\//g, "-")] = bundled.text;
  }
  return texts;
}

const BOM = "\uFEFF";
const crlf = (text: string) => text.replace(/\r?\n/g, "\r\n");

describe("the digest of a file's bytes", () => {
  it("is the digest the full path records for the same file, on real specs and their BOM and CRLF forms", async () => {
    const files: Record<string, string> = {};
    for (const [name, text] of Object.entries(await fixtureTexts())) {
      files[name] = text;
      files[`bom-${name}`] = BOM + text;
      files[`crlf-${name}`] = crlf(text);
      files[`bom-crlf-${name}`] = BOM + crlf(text);
    }
    files["café.yaml"] =
      "# Ünïcödé: 日本語, emoji 🐈\nopenapi: 3.1.0\ninfo: {title: Café 🐈, version: '1'}\npaths: {}\n";
    files["big-numbers.json"] =
      '{"openapi": "3.1.0", "info": {"title": "Ids", "version": "1"}, "x-max-id": 9007199254740993, "paths": {}}';
    const results = await prepared(files);
    expect(results).toHaveLength(Object.keys(files).length);
    for (const { file, spec, fromBytes } of results) {
      const record = recordOfPrepared(spec);
      expect(fromBytes, file).toBe(record.digest);
      expect(record.standalone, file).toBe(true);
      expect(record.checks, file).toBe(CHECKS);
      expect(record.specVersion, file).toBe(spec.specVersion);
    }
    // Every form was told apart: a byte order mark or a line ending is a change.
    expect(new Set(results.map((result) => result.fromBytes)).size).toBe(results.length);
  });

  it("is not given for bytes that are not UTF-8, or that hold the record's key", async () => {
    const latin1 = Buffer.from("openapi: 3.1.0\ninfo: {title: Caf\xe9, version: '1'}\npaths: {}\n", "latin1");
    expect(digestOfFileBytes(latin1)).toBeUndefined();
    expect(digestOfFileBytes(Buffer.from(`openapi: 3.1.0\n# ${RECORD_KEY}\n`))).toBeUndefined();
    // The full path decodes such bytes with U+FFFD, and digests that text instead.
    const [result] = await prepared({ "latin1.yaml": latin1 });
    expect(result?.fromBytes).toBeUndefined();
    expect(recordOfPrepared(result?.spec as PreparedSpec).digest).toMatch(/^sha256:/);
  });
});

describe("what a record says the checks read", () => {
  it("is standalone only when the root references no other file, whatever other files hold", async () => {
    const results = await prepared({
      "one.yaml": "openapi: 3.1.0\ninfo: {title: One, version: 1.10}\npaths: {}\n",
      // A $ref in a comment and in example data: not references, found by reading the document.
      "commented.yaml":
        "openapi: 3.1.0\ninfo: {title: C, version: '2'}\n# but $ref: ./x.yaml is not supported here\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              examples:\n                a: {value: {$ref: ./data.yaml}}\n",
      "split/root.yaml":
        "openapi: 3.1.0\ninfo: {title: S, version: '3'}\npaths:\n  /s:\n    $ref: ./s.yaml\n",
      "split/s.yaml": "get:\n  responses:\n    '200': {description: ok}\n",
      // An example wholly a $ref to a file that cannot be read: sent as written, but not standalone.
      "missing.yaml":
        "openapi: 3.1.0\ninfo: {title: M, version: '4'}\npaths:\n  /m:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: {$ref: ./later.json}\n",
    });
    const byFile = new Map(results.map((result) => [result.file, result]));
    const one = recordOfPrepared(byFile.get("one.yaml")?.spec as PreparedSpec);
    expect(one).toMatchObject({ standalone: true, specVersion: "1.10", checks: CHECKS });
    expect(recordOfPrepared(byFile.get("commented.yaml")?.spec as PreparedSpec).standalone).toBe(true);

    const split = recordOfPrepared(byFile.get("split/root.yaml")?.spec as PreparedSpec);
    expect(split.standalone).toBeUndefined();
    expect(split.digest).not.toBe(byFile.get("split/root.yaml")?.fromBytes);

    const missing = byFile.get("missing.yaml");
    const record = recordOfPrepared(missing?.spec as PreparedSpec);
    expect(record.digest).toBe(missing?.fromBytes);
    expect(record.standalone).toBeUndefined();
  });

  it("reads back from the document GitBook keeps, and a record without them reads as before", () => {
    const text = "openapi: 3.1.0\ninfo: {title: T, version: 'v\u00e9 \"1\"'}\npaths: {}\n";
    const recorded = withRecord(text, "yaml", ownerDigest, "t.yaml", place, {
      specVersion: 'vé "1"',
      standalone: true,
    });
    expect(recorded.text.split("\n")[0]).toMatch(/^x-publish-record: \{ [\x20-\x7e]+ \}$/);
    const stored = JSON.parse(JSON.stringify({ [RECORD_KEY]: recordOfLine(recorded.text) }));
    expect(recordOf(stored)).toEqual(recorded.record);
    expect(recordOf(stored)).toMatchObject({ specVersion: 'vé "1"', standalone: true, checks: CHECKS });
    const before = withRecord(text, "yaml", ownerDigest, "t.yaml", place).record;
    expect(before).toEqual({
      tool: "gitbook-openapi",
      owner: ownerDigest,
      path: "t.yaml",
      slug: "t",
      digest: expect.any(String),
      document: expect.stringMatching(/^sha256:/),
    });
  });

  it("leaves out an info.version too long to carry", () => {
    const long = "1.".repeat(200);
    const recorded = withRecord("openapi: 3.1.0\n", "yaml", ownerDigest, "a.yaml", place, {
      specVersion: long,
      standalone: true,
    });
    expect(recorded.record?.specVersion).toBeUndefined();
  });
});

function recordOfLine(text: string): unknown {
  const line = text.split("\n")[0] as string;
  return JSON.parse(line.slice(line.indexOf("{")));
}

describe("sameness from the bytes", () => {
  const spec = specFixture({
    id: "spec_1",
    updatedAt: "2026-01-01T00:00:00.000Z",
    lastVersion: "ver_1",
    lastProcessedErrorCount: 0,
    urls: { location: "https://api/pets", app: "https://app/pets" },
  });
  const digest = `sha256:${"a".repeat(64)}`;
  const proven: HeldPublishRecord = {
    tool: "gitbook-openapi",
    owner: ownerDigest,
    path: "pets.yaml",
    slug: "pets",
    digest,
    contentProven: true,
    specVersion: "1.0.0",
    standalone: true,
    checks: CHECKS,
  };
  const file = { owner: ownerDigest, slug: "pets", path: "pets.yaml", digest };

  it("is proven by this owner's record of this file and text, sent as written, under these rules", () => {
    expect(sameFileAsHeld(file, { spec, record: proven })).toEqual({ same: true, specVersion: "1.0.0" });
  });

  it("is not proven when any of it is missing or other: the file is then read and checked", () => {
    const { specVersion: _v, ...noVersion } = proven;
    const { standalone: _s, ...bundle } = proven;
    const { checks: _c, ...before } = proven;
    const others: (HeldPublishRecord | string)[] = [
      { ...proven, digest: `sha256:${"b".repeat(64)}` },
      { ...proven, slug: "pets-copy" },
      { ...proven, contentProven: false },
      { ...proven, owner: "f".repeat(32) },
      { ...proven, path: "old/pets.yaml" },
      { ...proven, checks: CHECKS + 1 },
      noVersion,
      bundle,
      before,
      "GitBook's version carries no `x-publish-record`",
    ];
    for (const record of others) expect(sameFileAsHeld(file, { spec, record })).toEqual({ same: false });
    expect(sameFileAsHeld(file, { spec: { ...spec, processingState: "progress" }, record: proven })).toEqual({
      same: false,
    });
    expect(
      sameFileAsHeld(file, { spec: { ...spec, lastProcessErrorCode: "PARSE_ERROR" }, record: proven }),
    ).toEqual({ same: false });
  });
});
