import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec, findExternalRefs } from "../../src/core/bundling/index.ts";
import { diskLoader, firstDifference, mayHoldNewComponents, memoryLoader } from "./same-graph.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

const fixture = fileURLToPath(new URL("../fixtures/multi-file", import.meta.url));
let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

/** A copy of the fixture outside the repository, so nothing can resolve against the working directory. */
function fixtureCopy(): TempTree {
  tree = tempTree(fixture);
  return tree;
}

function differenceFromOriginal(rootPath: string, bundledDocument: unknown): string | null {
  const rootUrl = pathToFileURL(rootPath).href;
  const disk = diskLoader();
  const bundleUrl = "file:///bundle";
  return firstDifference(
    { url: rootUrl, value: disk(rootUrl) },
    disk,
    { url: bundleUrl, value: bundledDocument },
    memoryLoader(bundleUrl, bundledDocument),
    mayHoldNewComponents,
  );
}

describe("bundleSpec on a multi-file spec", () => {
  it("dereferences to the same API as the original files (YAML root stays YAML)", async () => {
    const copy = fixtureCopy();
    const result = await bundleSpec(copy.path("openapi.yaml"), { workspace: copy.root });

    expect(result.bundled).toBe(true);
    expect(() => JSON.parse(result.text)).toThrow();
    const document = parse(result.text);
    expect(findExternalRefs(document)).toEqual([]);
    expect(differenceFromOriginal(copy.path("openapi.yaml"), document)).toBeNull();
  });

  it("dereferences to the same API as the original files (JSON root stays JSON)", async () => {
    const copy = fixtureCopy();
    const result = await bundleSpec(copy.path("openapi.json"), { workspace: copy.root });

    const document = JSON.parse(result.text);
    expect(findExternalRefs(document)).toEqual([]);
    expect(differenceFromOriginal(copy.path("openapi.json"), document)).toBeNull();
  });

  it("names every schema, parameter and response of another file in components, the root's names kept", async () => {
    const copy = fixtureCopy();
    const document = parse((await bundleSpec(copy.path("openapi.yaml"), { workspace: copy.root })).text);

    expect(Object.keys(document.components.schemas)).toEqual([
      "Pet",
      "Owner",
      "PetList",
      "Money",
      "CountryCode",
      "Currency",
      "Id",
      "PageSize",
      "category",
      "error",
      "invoice",
      "line-item",
    ]);
    // A schema defined inside another one's file is reached inside that component.
    expect(document.components.schemas.Pet.properties.tags.items).toEqual({
      $ref: "#/components/schemas/Pet/$defs/Tag",
    });
    expect(Object.keys(document.components.parameters)).toEqual(["Limit", "Offset", "Species", "pet-id"]);
    expect(Object.keys(document.components.responses)).toEqual(["NotFound", "BadRequest", "Unexpected"]);
    // The root's `Pet: {$ref: ./schemas/pet.yaml}` now holds the file, and every reference to it points there.
    expect(document.components.schemas.Pet.type).toBe("object");
    expect(document.paths["/pets"].post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Pet",
    });
    expect(document.components.schemas.invoice.properties.customer).toEqual({
      $ref: "#/components/schemas/Owner",
    });
    expect(document.paths["/pets"].get.parameters).toEqual([
      { $ref: "#/components/parameters/Species" },
      { $ref: "#/components/parameters/Limit" },
      { $ref: "#/components/parameters/Offset" },
    ]);
  });

  it("keeps the root's internal references as references", async () => {
    const copy = fixtureCopy();
    const result = await bundleSpec(copy.path("openapi.yaml"), { workspace: copy.root });

    expect(parse(result.text).components.schemas.PetList.items).toEqual({ $ref: "#/components/schemas/Pet" });
  });

  it("lists every file that went in, workspace-relative, root first", async () => {
    const copy = fixtureCopy();
    const result = await bundleSpec(copy.path("openapi.yaml"), { workspace: copy.root });

    expect(result.files[0]).toBe("openapi.yaml");
    expect([...result.files].sort()).toEqual([
      "openapi.yaml",
      "parameters/pagination.json",
      "parameters/pet-id.json",
      "paths/billing/invoices.yaml",
      "paths/owner.yaml",
      "paths/pet-by-id.yaml",
      "paths/pets.yaml",
      "responses/errors.json",
      "schemas/billing/invoice.yaml",
      "schemas/billing/line-item.yaml",
      "schemas/category.yaml",
      "schemas/common.yaml",
      "schemas/error.yaml",
      "schemas/owner.yaml",
      "schemas/pet.yaml",
    ]);
  });

  it("accepts a spec nested below the workspace root", async () => {
    tree = tempTree();
    tree.write({
      "apis/petstore/openapi.yaml":
        "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      $ref: ../shared/a.yaml\n",
      "apis/shared/a.yaml": "type: string\n",
    });
    const result = await bundleSpec(tree.path("apis/petstore/openapi.yaml"), { workspace: tree.root });

    expect(parse(result.text).components.schemas.A).toEqual({ type: "string" });
    expect(result.files).toEqual(["apis/petstore/openapi.yaml", "apis/shared/a.yaml"]);
  });

  it("turns references from other files back to the root into internal ones", async () => {
    tree = tempTree();
    tree.write({
      "openapi.yaml": "openapi: 3.1.0\nx-a:\n  $ref: ./schemas/a.yaml\nx-b:\n  type: string\n",
      "schemas/a.yaml":
        "type: object\nproperties:\n  up:\n    $ref: ../openapi.yaml\n  b:\n    $ref: ../openapi.yaml#/x-b\n",
    });
    const result = await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root });
    const document = parse(result.text);

    expect(findExternalRefs(document)).toEqual([]);
    expect(differenceFromOriginal(tree.path("openapi.yaml"), document)).toBeNull();
  });

  it("keeps a node whose own file is referenced from inside it (found by the round-trip property test)", async () => {
    tree = tempTree();
    tree.write({
      "f0.yaml": "a:\n  $ref: f1.yaml#/b\n",
      "f1.yaml": "b:\n  type: object\n  properties:\n    back:\n      $ref: ./f1.yaml\n",
    });
    const result = await bundleSpec(tree.path("f0.yaml"), { workspace: tree.root });
    const document = parse(result.text);

    expect(document).toEqual({
      a: { type: "object", properties: { back: { b: { $ref: "#/a" } } } },
    });
    expect(differenceFromOriginal(tree.path("f0.yaml"), document)).toBeNull();
  });

  it("gives a reference with siblings a copy with its siblings over it; a node inside is written once", async () => {
    tree = tempTree();
    tree.write({
      "openapi.yaml": [
        "openapi: 3.1.0",
        "x-a: { $ref: ./f.yaml, description: mine }",
        "x-z: { deep: { $ref: ./f.yaml#/inner } }",
        "",
      ].join("\n"),
      "f.yaml": "description: theirs\ninner: { type: string }\n",
    });
    const document = parse((await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root })).text);

    expect(document).toEqual({
      openapi: "3.1.0",
      "x-a": { description: "mine", inner: { type: "string" } },
      "x-z": { deep: { $ref: "#/x-a/inner" } },
    });
  });

  it("resolves a schema's references against its file, whatever its $id says", async () => {
    tree = tempTree();
    tree.write({
      "openapi.yaml": "openapi: 3.1.0\ncomponents:\n  schemas:\n    Pet:\n      $ref: ./pet.yaml\n",
      "pet.yaml":
        "$id: https://example.com/schemas/pet\ntype: object\nproperties:\n  tag:\n    $ref: ./tag.yaml\n",
      "tag.yaml": "type: string\n",
    });
    const document = parse((await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root })).text);

    expect(document.components.schemas).toEqual({
      Pet: {
        $id: "https://example.com/schemas/pet",
        type: "object",
        properties: { tag: { $ref: "#/components/schemas/tag" } },
      },
      tag: { type: "string" },
    });
  });

  it("resolves percent-encoded file names", async () => {
    tree = tempTree();
    tree.write({
      "openapi.yaml": "openapi: 3.1.0\nx-a:\n  $ref: ./my%20schema.yaml\n",
      "my schema.yaml": "type: integer\n",
    });
    const result = await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root });

    expect(parse(result.text)["x-a"]).toEqual({ type: "integer" });
  });
});

describe("bundleSpec on a single-file spec", () => {
  const text = [
    "# Keep me",
    "paths: {}",
    "openapi: 3.0.3   # odd order, odd spacing",
    "info: { title: T, version: '1' }",
    "components:",
    "  schemas:",
    "    A: { $ref: '#/components/schemas/B' }",
    "    B: {type: string}",
    "",
  ].join("\n");

  it("returns the file's exact bytes", async () => {
    tree = tempTree();
    tree.write({ "spec.yaml": text });
    const result = await bundleSpec(tree.path("spec.yaml"), { workspace: tree.root });

    expect(result).toEqual({ text, bundled: false, standalone: true, files: ["spec.yaml"] });
  });

  it("uses the text it is given instead of reading the file again", async () => {
    tree = tempTree();
    tree.write({ "spec.yaml": "openapi: 3.1.0\n" });
    const result = await bundleSpec(tree.path("spec.yaml"), { workspace: tree.root }, text);

    expect(result.text).toBe(text);
  });

  it("bundles from the text it is given", async () => {
    tree = tempTree();
    tree.write({ "spec.yaml": "openapi: 3.1.0\n", "a.json": '{"type": "boolean"}' });
    const given = "openapi: 3.1.0\nx-a:\n  $ref: a.json\n";
    const result = await bundleSpec(tree.path("spec.yaml"), { workspace: tree.root }, given);

    expect(parse(result.text)).toEqual({ openapi: "3.1.0", "x-a": { type: "boolean" } });
    expect(readFileSync(tree.path("spec.yaml"), "utf8")).toBe("openapi: 3.1.0\n");
  });
});

describe("bundleSpec with the root already parsed", () => {
  it("returns the text at once when the parsed root has no external reference", async () => {
    tree = tempTree();
    const given = "openapi: 3.1.0\npaths: {}\n";
    // The file on disk is not even valid: a root without external references is neither read nor parsed again.
    tree.write({ "spec.yaml": "openapi: [" });
    const result = await bundleSpec(tree.path("spec.yaml"), { workspace: tree.root }, given, parse(given));
    expect(result).toEqual({ text: given, bundled: false, standalone: true, files: ["spec.yaml"] });
  });

  it("still bundles when the parsed root refers to another file", async () => {
    tree = tempTree();
    tree.write({ "spec.yaml": "openapi: 3.1.0\n", "a.json": '{"type": "boolean"}' });
    const given = "openapi: 3.1.0\nx-a:\n  $ref: a.json\n";
    const result = await bundleSpec(tree.path("spec.yaml"), { workspace: tree.root }, given, parse(given));
    expect(result.bundled).toBe(true);
    expect(parse(result.text)).toEqual({ openapi: "3.1.0", "x-a": { type: "boolean" } });
  });
});

describe("findExternalRefs", () => {
  it("lists each reference to another file once and ignores internal ones", () => {
    const document = {
      a: { $ref: "./a.yaml" },
      b: [{ $ref: "#/components/x" }, { $ref: "b.json#/x" }],
      c: { nested: { $ref: "./a.yaml" } },
      d: { $ref: 42 },
    };
    expect(findExternalRefs(document).sort()).toEqual(["./a.yaml", "b.json#/x"]);
  });

  it("terminates on cyclic objects", () => {
    const node: Record<string, unknown> = { $ref: "x.yaml" };
    node.self = node;
    expect(findExternalRefs(node)).toEqual(["x.yaml"]);
  });
});
