import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import {
  type DiscoveredSpec,
  DiscoveryError,
  discoverSpecs,
  loadSpec,
} from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { git, loaded, makeTree, OPENAPI_YAML, SWAGGER_JSON, writeFiles } from "./helpers.ts";

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await makeTree(files);
  cleanup.push(root);
  return root;
}

const NOT_SPECS = {
  "package.json": JSON.stringify({ name: "x", scripts: { openapi: "redocly lint" } }),
  "schemas/user.schema.json": JSON.stringify({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
  }),
  "events/asyncapi.yaml": "asyncapi: 3.0.0\ninfo:\n  title: Events\n  version: 1.0.0\n",
  "k8s/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\n---\napiVersion: v1\nkind: Service\n",
  ".github/workflows/ci.yml": "on: push\njobs:\n  openapi:\n    runs-on: ubuntu-latest\n",
  "config/tool.yaml": "openapi:\n  enabled: true\n  output: docs/\n",
  "fragments/pet.yaml": "type: object\nproperties:\n  name: { type: string }\n",
  "README.md": "openapi: 3.0.0\n",
};

describe("discoverSpecs, whole workspace", () => {
  it("finds OpenAPI 3 and Swagger 2 documents, skips everything else, sorted by path", async () => {
    const root = await tree({
      ...NOT_SPECS,
      "services/payments/openapi.json": JSON.stringify({
        openapi: "3.0.3",
        info: { title: "P", version: "2" },
      }),
      "api/petstore.YAML": OPENAPI_YAML,
      "legacy/store.swagger.json": SWAGGER_JSON,
    });
    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });

    expect(result.specs.map((spec) => spec.path)).toEqual([
      "api/petstore.YAML",
      "legacy/store.swagger.json",
      "services/payments/openapi.json",
    ]);
    expect(result.broken).toEqual([]);
    const [yamlSpec, swaggerSpec, jsonSpec] = result.specs;
    expect(yamlSpec).toMatchObject({
      format: "yaml",
      flavor: "openapi",
      declaredVersion: "3.1.0",
    });
    expect(yamlSpec && "text" in yamlSpec).toBe(false); // contents are read when the spec's turn comes
    expect(loaded(yamlSpec).text).toBe(OPENAPI_YAML);
    expect(yamlSpec?.absolutePath).toBe(path.join(root, "api/petstore.YAML"));
    expect(loaded(yamlSpec).document).toMatchObject({ info: { title: "Pets" } });
    expect(swaggerSpec).toMatchObject({ format: "json", flavor: "swagger", declaredVersion: "2.0" });
    expect(loaded(jsonSpec).document).toEqual({ openapi: "3.0.3", info: { title: "P", version: "2" } });
    expect(logger.messages("debug")).toContainEqual(expect.stringContaining("config/tool.yaml"));
    expect(logger.messages("warning")).toEqual([]);
  });

  it("finds a JSON spec whose openapi key comes after a large info", async () => {
    const bigInfo = { title: "Big", version: "1", description: "x".repeat(200_000) };
    const root = await tree({ "late.json": JSON.stringify({ info: bigInfo, paths: {}, openapi: "3.1.0" }) });
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger: new MemoryLogger() });
    expect(result.specs.map((spec) => spec.path)).toEqual(["late.json"]);
  });

  it("reads files of tens of megabytes and keeps their exact text, byte order mark included", async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 40_000 }, (_, i) => [`/items/${i}`, { get: { summary: "x".repeat(300) } }]),
    );
    const big = JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths });
    const root = await tree({ "big.json": big, "bom.json": `\uFEFF${SWAGGER_JSON}` });
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger: new MemoryLogger() });
    expect(big.length).toBeGreaterThan(10_000_000);
    expect(result.specs.map((spec) => spec.path)).toEqual(["big.json", "bom.json"]);
    expect(loaded(result.specs[0]).text).toBe(big);
    expect(Object.keys(loaded(result.specs[0]).document.paths as object)).toHaveLength(40_000);
    expect(loaded(result.specs[1]).text.startsWith("\uFEFF")).toBe(true);
  });

  it("reports an unparsable file that declares openapi as broken, with the error's position", async () => {
    const root = await tree({
      "broken.yaml": "openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\n",
      "broken.json": '{\n  "openapi": "3.0.0",\n  "info": { "title": "x", }\n}\n',
      "garbage.yaml": "tools:\n  openapi: [unclosed\n",
      "nested-key.json": '{ "info": { "openapi": 1 }, oops }',
    });
    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });

    // A file that plainly declares a spec is parsed when its turn comes, with the same outcome: a syntax
    // error at its position.
    expect(result.broken).toEqual([]);
    expect(result.specs.map((spec) => spec.path)).toEqual(["broken.json", "broken.yaml"]);
    const [json, yaml] = result.specs.map((spec) => loadSpec(spec as DiscoveredSpec));
    expect(json).toMatchObject({
      ok: false,
      code: "SYNTAX_ERROR",
      problem: { file: "broken.json", line: 3, column: 27 },
    });
    expect(json?.ok ? "" : json?.problem.message).toMatch(/^broken\.json: JSON syntax error/);
    expect(yaml).toMatchObject({
      ok: false,
      code: "SYNTAX_ERROR",
      problem: { file: "broken.yaml", line: expect.any(Number) },
    });
    expect(yaml?.ok ? "" : yaml?.problem.message).toMatch(/^broken\.yaml: YAML syntax error/);
    expect(logger.messages("debug").join("\n")).toMatch(/garbage\.yaml: .*cannot be parsed/);
    expect(logger.messages("debug").join("\n")).toMatch(/nested-key\.json: .*cannot be parsed/);
  });

  it("warns about a version written as a number and does not publish it", async () => {
    const root = await tree({ "unquoted.yaml": "swagger: 2\ninfo:\n  title: x\n  version: 1\n" });
    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });
    expect(result.specs).toEqual([]);
    expect(logger.entries.filter((entry) => entry.level === "warning")).toEqual([
      {
        level: "warning",
        message: expect.stringMatching(/unquoted\.yaml: its `swagger` is the number 2.*"2\.0"/),
        location: { file: "unquoted.yaml", line: 1 },
      },
    ]);
  });

  it("outside git, skips .git and every node_modules", async () => {
    const root = await tree({
      "openapi.yaml": OPENAPI_YAML,
      "node_modules/pkg/openapi.yaml": OPENAPI_YAML,
      "packages/a/node_modules/b/spec.json": SWAGGER_JSON,
      ".git/openapi.yaml": OPENAPI_YAML,
    });
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger: new MemoryLogger() });
    expect(result.specs.map((spec) => spec.path)).toEqual(["openapi.yaml"]);
  });

  it("in a git work tree, honours nested .gitignore files, lists untracked files and skips deleted ones", async () => {
    const root = await tree({
      "tracked/openapi.yaml": OPENAPI_YAML,
      "deleted/openapi.yaml": OPENAPI_YAML,
      "build/generated.json": SWAGGER_JSON,
      ".gitignore": "build/\n",
      "pkg/.gitignore": "out.yaml\n",
      "pkg/out.yaml": OPENAPI_YAML,
      "pkg/kept.yaml": OPENAPI_YAML,
      "vendor/node_modules/x/openapi.yaml": OPENAPI_YAML,
    });
    git(root, "init", "-q");
    git(root, "add", "-A", "-f", "tracked", "deleted", "vendor", ".gitignore", "pkg/.gitignore");
    git(root, "commit", "-q", "-m", "init");
    await fs.rm(path.join(root, "deleted"), { recursive: true });
    await writeFiles(root, { "untracked/swagger.json": SWAGGER_JSON });

    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });
    expect(result.specs.map((spec) => spec.path)).toEqual([
      "pkg/kept.yaml",
      "tracked/openapi.yaml",
      "untracked/swagger.json",
    ]);
    expect(logger.messages("debug")).toContain("Skipped deleted/openapi.yaml: it does not exist.");
  });

  it("warns and searches every folder when the workspace has a .git that git cannot use", async () => {
    const root = await tree({ ".git": "gitdir: /nonexistent/place\n", "openapi.yaml": OPENAPI_YAML });
    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });
    expect(result.specs.map((spec) => spec.path)).toEqual(["openapi.yaml"]);
    expect(logger.messages("warning")).toEqual([
      expect.stringMatching(/^git could not list the files .*ignores/),
    ]);
  });

  it("skips a symbolic link that leads outside the workspace, with a warning, and publishes a linked spec once", async () => {
    const outside = await tree({ "secret.yaml": OPENAPI_YAML });
    const root = await tree({ "real/openapi.yaml": OPENAPI_YAML });
    await fs.symlink(path.join(outside, "secret.yaml"), path.join(root, "leak.yaml"));
    await fs.symlink(path.join(root, "real/openapi.yaml"), path.join(root, "alias.yaml"));
    const logger = new MemoryLogger();
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger });
    expect(result.specs.map((spec) => spec.path)).toEqual(["real/openapi.yaml"]);
    expect(logger.messages("warning")).toEqual([
      expect.stringMatching(/^Skipped leak\.yaml: .*outside the workspace/),
    ]);
    expect(logger.messages("debug")).toContain(
      "Skipped alias.yaml: it is a symbolic link to real/openapi.yaml, which is published once.",
    );
  });

  it("keeps a spec that $refs another whole spec, and the referenced spec, as two specs", async () => {
    const root = await tree({
      "a.yaml": `${OPENAPI_YAML.replace("paths: {}", "paths:\n  /x:\n    $ref: './b.yaml#/paths/~1y'")}`,
      "b.yaml": OPENAPI_YAML,
    });
    const result = await discoverSpecs({ workspace: root, git: commandLineGit, logger: new MemoryLogger() });
    expect(result.specs.map((spec) => spec.path)).toEqual(["a.yaml", "b.yaml"]);
  });

  it("throws a DiscoveryError for a missing workspace", async () => {
    const missing = path.join(os.tmpdir(), "does-not-exist-discovery-test");
    await expect(
      discoverSpecs({ workspace: missing, git: commandLineGit, logger: new MemoryLogger() }),
    ).rejects.toThrow(DiscoveryError);
  });
});

describe("discoverSpecs, with patterns", () => {
  it("returns matched specs, git-ignored ones included, honouring ! excludes", async () => {
    const root = await tree({
      ...NOT_SPECS,
      "specs/a.yaml": OPENAPI_YAML,
      "specs/drafts/b.yaml": OPENAPI_YAML,
      "build/gen.json": SWAGGER_JSON,
      "other/c.yaml": OPENAPI_YAML,
      ".gitignore": "build/\n",
    });
    git(root, "init", "-q");
    const logger = new MemoryLogger();
    const result = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["specs/**/*.yaml\n!specs/drafts/**\n\n# generated\nbuild/*.json", "fragments/*.yaml"],
      logger,
    });
    expect(result.specs.map((spec) => spec.path)).toEqual(["build/gen.json", "specs/a.yaml"]);
    expect(logger.messages("debug").join("\n")).toContain("fragments/pet.yaml");
  });

  it("leaves node_modules out unless a pattern names it", async () => {
    const root = await tree({ "a/openapi.yaml": OPENAPI_YAML, "node_modules/p/openapi.yaml": OPENAPI_YAML });
    const all = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["**/openapi.yaml"],
      logger: new MemoryLogger(),
    });
    expect(all.specs.map((spec) => spec.path)).toEqual(["a/openapi.yaml"]);
    const named = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["node_modules/p/*.yaml"],
      logger: new MemoryLogger(),
    });
    expect(named.specs.map((spec) => spec.path)).toEqual(["node_modules/p/openapi.yaml"]);
  });

  it("rejects a literal pattern naming a missing file or a file that is not a spec", async () => {
    const root = await tree({ ...NOT_SPECS, "openapi.yaml": OPENAPI_YAML });
    const run = (patterns: string[]) =>
      discoverSpecs({ workspace: root, git: commandLineGit, patterns, logger: new MemoryLogger() });

    await expect(run(["openapi.yaml\napi/missing.yaml"])).rejects.toThrow(
      /The pattern "api\/missing\.yaml" names api\/missing\.yaml, which does not exist/,
    );
    await expect(run(["./config/tool.yaml"])).rejects.toThrow(
      /"\.\/config\/tool\.yaml".*not an OpenAPI document/,
    );
    await expect(run(["README.md"])).rejects.toThrow(/not a \.yaml, \.yml or \.json file/);
    await expect(run(["../elsewhere/*.yaml"])).rejects.toThrow(DiscoveryError);
    await expect(run(["/etc/*.yaml"])).rejects.toThrow(/not relative to the workspace/);
    const ok = await run([
      "openapi.yaml",
      "config",
      "fragments/pet.yaml",
      "!config/tool.yaml",
      "!fragments/**",
    ]);
    expect(ok.specs.map((spec) => spec.path)).toEqual(["openapi.yaml"]);
  });

  it("reports a literal pattern naming a broken spec as broken, not as an error", async () => {
    const root = await tree({
      "bad.yaml": "openapi: 3.0.0\ninfo: [\n",
      "bad.json": '{"openapi": "3.0.0",',
      "odd.json": '{"openapi": 3.0, "info": [',
    });
    const result = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["bad.yaml", "bad.json", "odd.json"],
      logger: new MemoryLogger(),
    });
    // Declared plainly: found now, parsed at its turn. Declared otherwise: parsed now, broken.
    expect(result.broken.map((spec) => spec.path)).toEqual(["odd.json"]);
    for (const spec of result.specs) {
      expect(loadSpec(spec as DiscoveredSpec)).toMatchObject({ ok: false, code: "SYNTAX_ERROR" });
    }
    expect(result.specs.map((spec) => spec.path)).toEqual(["bad.json", "bad.yaml"]);
  });
});

describe("discoverSpecs asks the Git port for the workspace's files", () => {
  it("searches what the port lists, with the candidate pathspecs, and nothing else", async () => {
    const root = await tree({ "listed.yaml": OPENAPI_YAML, "unlisted.yaml": OPENAPI_YAML });
    const asked: (readonly string[])[] = [];
    const result = await discoverSpecs({
      workspace: root,
      git: {
        listFiles: async (workspace, pathspecs) => {
          expect(workspace).toBe(root);
          asked.push(pathspecs);
          return { ok: true, paths: ["listed.yaml"] };
        },
      },
      logger: new MemoryLogger(),
    });
    expect(result.specs.map((spec) => spec.path)).toEqual(["listed.yaml"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.length).toBeGreaterThan(0);
  });

  it("walks every folder when the port cannot list, warning in a repository", async () => {
    const root = await tree({ ".git/HEAD": "ref: refs/heads/main\n", "a.yaml": OPENAPI_YAML });
    const logger = new MemoryLogger();
    const result = await discoverSpecs({
      workspace: root,
      git: { listFiles: async () => ({ ok: false, reason: "git is not installed or not on PATH" }) },
      logger,
    });
    expect(result.specs.map((spec) => spec.path)).toEqual(["a.yaml"]);
    const warnings = logger.entries
      .filter((entry) => entry.level === "warning")
      .map((entry) => entry.message);
    expect(warnings).toEqual([expect.stringContaining("git could not list the files (git is not installed")]);
  });
});
