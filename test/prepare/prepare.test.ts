import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { type DiscoveredSpec, discoverSpecs } from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { PrepareOptions } from "../../src/core/prepare/prepare.ts";
import { prepareFile, prepareSpecs } from "../../src/core/prepare/prepare.ts";
import { DuplicateSlugError, previewSlug } from "../../src/core/slugs/index.ts";

let workspace = "";
afterEach(() => rm(workspace, { recursive: true, force: true }));

async function tree(files: Record<string, string>): Promise<string> {
  workspace = await mkdtemp(path.join(tmpdir(), "prepare-"));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(workspace, file)), { recursive: true });
    await writeFile(path.join(workspace, file), text);
  }
  return workspace;
}

async function prepare(files: Record<string, string>, overrides: Partial<PrepareOptions> = {}) {
  const dir = await tree(files);
  const logger = new MemoryLogger();
  const discovery = await discoverSpecs({ workspace: dir, git: commandLineGit, logger });
  return prepareSpecs(discovery, {
    workspace: dir,
    slugMapping: new Map(),
    slugPrefix: undefined,
    repositoryName: "widgets",
    sourceUrlFor: undefined,
    logger,
    ...overrides,
  });
}

const spec = (version: string) => `openapi: 3.1.0\ninfo:\n  title: T\n  version: ${version}\npaths: {}\n`;

describe("prepareSpecs", () => {
  it("names, validates and bundles each spec, in path order", async () => {
    const prepared = await prepare({
      "openapi.yaml": spec("2.0.0"),
      "api/pets.yaml":
        "openapi: 3.0.0\ninfo: {title: P, version: '1'}\npaths:\n  /p:\n    $ref: ./paths/p.yaml\n",
      "api/paths/p.yaml": "get:\n  responses:\n    '200': {description: ok}\n",
    });
    expect(prepared.map((p) => [p.file, p.slug, p.specVersion])).toEqual([
      ["api/pets.yaml", "api-pets", "1"],
      ["openapi.yaml", "widgets", "2.0.0"],
    ]);
    expect(prepared[0]?.bundledFiles).toEqual(["api/pets.yaml", "api/paths/p.yaml"]);
    expect(prepared[0]?.source && "text" in prepared[0].source ? prepared[0].source.text : "").toContain(
      "responses",
    );
    expect(prepared[1]?.source).toEqual({ text: spec("2.0.0") });
  });

  it("keeps each spec's local problems on that spec, located", async () => {
    const prepared = await prepare({
      "good.yaml": spec("1"),
      "broken.yaml": "openapi: 3.0.0\ninfo: [\n",
      "untitled.yaml": "openapi: 3.0.0\ninfo:\n  version: '1'\npaths: {}\n",
      "dangling.yaml":
        "openapi: 3.0.0\ninfo: {title: D, version: '1'}\npaths:\n  /x:\n    $ref: ./nope.yaml\n",
    });
    const byFile = Object.fromEntries(prepared.map((p) => [p.file, p]));
    expect(byFile["good.yaml"]?.problems).toEqual([]);
    expect(byFile["broken.yaml"]?.problems[0]).toMatchObject({
      code: "SYNTAX_ERROR",
      location: { file: "broken.yaml" },
    });
    expect(byFile["broken.yaml"]?.problems[0]?.location.line).toBeGreaterThan(0);
    expect(byFile["untitled.yaml"]?.problems[0]?.code).toBe("INVALID_SPEC");
    expect(byFile["untitled.yaml"]?.problems[0]?.message).toContain("info.title");
    expect(byFile["dangling.yaml"]?.problems[0]).toMatchObject({
      code: "BUNDLE_ERROR",
      location: { file: "dangling.yaml", line: 5 },
    });
    for (const file of ["broken.yaml", "untitled.yaml", "dangling.yaml"])
      expect(byFile[file]?.source).toBeUndefined();
  });

  it("uses preview slugs on pull requests, explicit slugs and prefixes, and URL sources", async () => {
    const prepared = await prepare(
      { "openapi.yaml": spec("1"), "billing.yaml": spec("1") },
      {
        publishedSlug: (slug: string) => previewSlug(slug, 12),
        slugMapping: new Map([["billing.yaml", "payments"]]),
        slugPrefix: "acme",
        sourceUrlFor: (file) => `https://example.test/raw/${file}`,
      },
    );
    expect(prepared.map((p) => [p.slug, p.source])).toEqual([
      ["payments-pr-12", { url: "https://example.test/raw/billing.yaml" }],
      ["acme-widgets-pr-12", { url: "https://example.test/raw/openapi.yaml" }],
    ]);
  });

  it("stops on two specs with the same slug, naming both", async () => {
    await expect(prepare({ "a/b.yaml": spec("1"), "a-b.yaml": spec("1") })).rejects.toThrow(
      DuplicateSlugError,
    );
    await expect(prepare({ "a/b.yaml": spec("1"), "a-b.yaml": spec("1") })).rejects.toThrow(
      /"a-b": "a-b\.yaml" keeps it; exclude "a\/b\.yaml"/,
    );
  });
});

describe("prepareFile, when a spec's turn comes after discovery", () => {
  it("reports a file deleted or replaced since discovery as READ_ERROR, naming it", async () => {
    const dir = await tree({ "a.yaml": spec("1"), "b.yaml": spec("2") });
    const discovery = await discoverSpecs({
      workspace: dir,
      git: commandLineGit,
      logger: new MemoryLogger(),
    });
    const [a, b] = discovery.specs;
    await rm(path.join(dir, "a.yaml"));
    await writeFile(path.join(dir, "b.yaml"), "title: no longer a spec\n");
    const options = { workspace: dir, sourceUrlFor: undefined };
    const gone = await prepareFile(a as DiscoveredSpec, "a", options, new MemoryLogger());
    const changed = await prepareFile(b as DiscoveredSpec, "b", options, new MemoryLogger());
    expect(gone.problems).toEqual([
      // The place is the location's, written once by the logger and in the results.
      expect.objectContaining({
        code: "READ_ERROR",
        message: "could not be read (ENOENT)",
        location: { file: "a.yaml" },
      }),
    ]);
    expect(changed.problems).toEqual([
      expect.objectContaining({
        code: "READ_ERROR",
        message: expect.stringMatching(/^b\.yaml changed while the run read it/),
      }),
    ]);
  });
});

describe("a spec that fails validation, for the review (issue 27)", () => {
  // No `info.title`: refused before upload, but it parses and bundles.
  const INVALID = `openapi: 3.0.3
info: {version: "1"}
paths:
  /pets:
    get:
      responses:
        "200": {description: ok}
  /admin:
    x-internal: true
    get:
      responses:
        "200": {description: ok}
`;

  const pathsOf = (spec: { document?: () => unknown } | undefined) =>
    Object.keys((spec?.document?.() as { paths?: object } | undefined)?.paths ?? {});

  it("keeps the document it would have uploaded, shaped when it is, and no text to upload", async () => {
    const plain = await prepare({ "api.yaml": INVALID }, { keepDocument: true });
    expect(plain[0]?.problems.map((p) => p.code)).toContain("INVALID_SPEC");
    expect(plain[0]?.source).toBeUndefined();
    expect(pathsOf(plain[0])).toEqual(["/pets", "/admin"]);

    const shaping = { overlays: [], removeInternal: true };
    const shaped = await prepare({ "api.yaml": INVALID }, { keepDocument: true, shaping });
    expect(shaped[0]?.problems.map((p) => p.code)).toContain("INVALID_SPEC");
    expect(shaped[0]?.source).toBeUndefined();
    expect(pathsOf(shaped[0])).toEqual(["/pets"]);
  });

  it("keeps none when the run does not compare, or the spec does not bundle", async () => {
    const uncompared = await prepare({ "api.yaml": INVALID });
    expect(uncompared[0]?.document).toBeUndefined();
    const unbundled = await prepare(
      { "api.yaml": INVALID.replace('"200": {description: ok}', '"200": {$ref: ./missing.yaml}') },
      { keepDocument: true },
    );
    expect(unbundled[0]?.problems.map((p) => p.code)).toContain("BUNDLE_ERROR");
    expect(unbundled[0]?.document).toBeUndefined();
  });
});
