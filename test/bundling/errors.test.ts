import { symlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type BundleError, BundleFailure, bundleSpec } from "../../src/core/bundling/index.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

/** Every problem bundling the spec at `root` reports. */
async function bundleProblems(
  files: Record<string, string>,
  root = "openapi.yaml",
): Promise<readonly BundleError[]> {
  tree = tempTree();
  tree.write(files);
  const error = await bundleSpec(tree.path(root), { workspace: tree.root }).catch(
    (caught: unknown) => caught,
  );
  if (!(error instanceof BundleFailure)) throw new Error(`expected a BundleFailure, got ${String(error)}`);
  return error.problems;
}

/** The one problem bundling the spec at `root` reports. */
async function bundleError(files: Record<string, string>, root = "openapi.yaml"): Promise<BundleError> {
  const problems = await bundleProblems(files, root);
  expect(problems).toHaveLength(1);
  return problems[0] as BundleError;
}

const rootReferring = (ref: string) =>
  `openapi: 3.1.0\ncomponents:\n  schemas:\n    Pet:\n      $ref: "${ref}"\n`;

describe("bundleSpec refuses", () => {
  it("a missing file, naming the file, the reference and its position", async () => {
    const error = await bundleError({ "openapi.yaml": rootReferring("./schemas/pet.yaml") });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "./schemas/pet.yaml", line: 5, column: 13 });
    expect(error.message).toContain("schemas/pet.yaml, which does not exist");
    expect(error.message).toMatch(/^openapi\.yaml:5:13: \$ref "\.\/schemas\/pet\.yaml"/);
  });

  it("a missing file referenced from a nested file, naming that file", async () => {
    const error = await bundleError({
      "openapi.yaml": rootReferring("./schemas/pet.yaml"),
      "schemas/pet.yaml": "type: object\nproperties:\n  owner:\n    $ref: ../owners/owner.json\n",
    });

    expect(error).toMatchObject({
      file: "schemas/pet.yaml",
      ref: "../owners/owner.json",
      line: 4,
      column: 11,
    });
    expect(error.message).toContain("owners/owner.json, which does not exist");
  });

  it("an absolute path", async () => {
    const error = await bundleError({ "openapi.yaml": rootReferring("/etc/schemas/pet.yaml") });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "/etc/schemas/pet.yaml" });
    expect(error.message).toContain("absolute path");
  });

  it("a file: URL", async () => {
    const error = await bundleError({ "openapi.yaml": rootReferring("file:///etc/pet.yaml") });

    expect(error.message).toContain("absolute path");
  });

  it("a path that leaves the workspace", async () => {
    const error = await bundleError({ "openapi.yaml": rootReferring("../../outside/pet.yaml") });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "../../outside/pet.yaml" });
    expect(error.message).toContain("outside the workspace");
  });

  it("a symbolic link that leads out of the workspace", async () => {
    const outside = tempTree();
    try {
      outside.write({ "secret.yaml": "type: string\n" });
      tree = tempTree();
      tree.write({ "openapi.yaml": rootReferring("./link.yaml") });
      symlinkSync(outside.path("secret.yaml"), tree.path("link.yaml"));
      const error = await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root }).catch(
        (e: unknown) => e,
      );

      expect(error).toBeInstanceOf(BundleFailure);
      expect((error as BundleFailure).problems[0]?.message).toContain("outside the workspace");
    } finally {
      outside.remove();
    }
  });

  it.each(["https://example.com/schemas/pet.yaml", "http://example.com/pet.json#/Pet"])(
    "the remote reference %s, pointing to the URL source mode",
    async (ref) => {
      const error = await bundleError({ "openapi.yaml": rootReferring(ref) });

      expect(error).toMatchObject({ file: "openapi.yaml", ref });
      expect(error.message).toContain("source: url");
    },
  );

  it("a fragment into a file that is not YAML or JSON", async () => {
    const error = await bundleError({
      "openapi.yaml": rootReferring("./docs/pet.md#/intro"),
      "docs/pet.md": "# Pet\n",
    });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "./docs/pet.md#/intro" });
    expect(error.message).toContain("a text file can only be referenced whole");
  });

  it("a referenced file that is neither YAML, JSON nor text", async () => {
    const error = await bundleError({
      "openapi.yaml": rootReferring("./logo.png"),
      "logo.png": "\u0089PNG\r\n\u001a\n\u0000\u0000",
    });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "./logo.png" });
    expect(error.message).toContain("neither YAML, JSON nor UTF-8 text");
  });

  it("a fragment that names no node of the file", async () => {
    const error = await bundleError({
      "openapi.yaml": rootReferring("./common.yaml#/Missing"),
      "common.yaml": "Present:\n  type: string\n",
    });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "./common.yaml#/Missing" });
    expect(error.message).toContain("#/Missing in common.yaml");
  });

  it("a referenced file that does not parse, with the position of the syntax error", async () => {
    const error = await bundleError({
      "openapi.yaml": rootReferring("./pet.json"),
      "pet.json": '{\n  "type": "object",\n  "properties": {\n}\n',
    });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "./pet.json" });
    expect(error.message).toMatch(/pet\.json, which is not valid YAML or JSON at line \d+/);
  });

  it("a root that does not parse", async () => {
    const error = await bundleError({ "openapi.yaml": "openapi: 3.1.0\nopenapi: 3.0.0\n" });

    expect(error).toMatchObject({ file: "openapi.yaml", ref: "", line: 2 });
  });

  it("a reference in a JSON file, with its position", async () => {
    const error = await bundleError(
      { "openapi.json": '{\n  "openapi": "3.1.0",\n  "x-a": { "$ref": "https://example.com/a.json" }\n}\n' },
      "openapi.json",
    );

    expect(error).toMatchObject({ file: "openapi.json", line: 3, column: 20 });
  });

  it("a root outside the workspace", async () => {
    tree = tempTree();
    tree.write({ "inside/openapi.yaml": "openapi: 3.1.0\n" });
    const error = await bundleSpec(tree.path("inside/openapi.yaml"), { workspace: tree.path("other") }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(BundleFailure);
    expect((error as BundleFailure).message).toContain("outside the workspace");
  });
});

describe("bundleSpec reports every problem of a spec at once", () => {
  it("each reference that cannot be bundled, in every file, with its position, by file and line", async () => {
    const problems = await bundleProblems({
      "openapi.yaml": [
        "openapi: 3.1.0",
        "paths:",
        "  /a:",
        "    $ref: ./paths/a.yaml",
        "  /b:",
        "    $ref: ./paths/missing.yaml",
        "components:",
        "  schemas:",
        "    Remote:",
        "      $ref: https://example.com/pet.json",
        "",
      ].join("\n"),
      "paths/a.yaml": [
        "get:",
        "  responses:",
        "    '200':",
        "      $ref: ../responses.yaml#/Missing",
        "    '404':",
        "      $ref: /etc/responses.yaml",
        "",
      ].join("\n"),
      "responses.yaml": "Ok:\n  description: ok\n",
    });

    expect(problems.map(({ file, ref, line }) => ({ file, ref, line }))).toEqual([
      { file: "openapi.yaml", ref: "./paths/missing.yaml", line: 6 },
      { file: "openapi.yaml", ref: "https://example.com/pet.json", line: 10 },
      { file: "paths/a.yaml", ref: "../responses.yaml#/Missing", line: 4 },
      { file: "paths/a.yaml", ref: "/etc/responses.yaml", line: 6 },
    ]);
  });

  it("each reference to a missing file, not only the first", async () => {
    const problems = await bundleProblems({
      "openapi.yaml": [
        "openapi: 3.0.3",
        "paths:",
        "  /a:",
        "    get:",
        "      description:",
        "        $ref: ./docs/a.md",
        "      x-codeSamples:",
        "        - lang: C#",
        "          source:",
        "            $ref: ./code/a.cs",
        "        - lang: PHP",
        "          source:",
        "            $ref: ./code/a.php",
        "",
      ].join("\n"),
      "code/a.cs": "// present\n",
    });

    expect(problems.map((problem) => [problem.ref, problem.line, problem.column])).toEqual([
      ["./docs/a.md", 6, 15],
      ["./code/a.php", 13, 19],
    ]);
    expect(problems[0]?.message).toContain("docs/a.md, which does not exist");
  });
});
