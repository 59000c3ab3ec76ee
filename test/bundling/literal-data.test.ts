import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec, findExternalRefs } from "../../src/core/bundling/index.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

async function bundle(files: Record<string, string>, root = "openapi.yaml") {
  tree = tempTree();
  tree.write(files);
  return bundleSpec(tree.path(root), { workspace: tree.root });
}

/** OpenAPI 3.1 with a `$ref` in every place where the contents are literal data. */
const literalRefs = [
  "openapi: 3.1.0",
  "info: { title: Literal, version: '1' }",
  "paths:",
  "  /stats:",
  "    get:",
  "      parameters:",
  "        - name: q",
  "          in: query",
  "          schema: { type: object }",
  "          examples:",
  "            one: { value: { $ref: missing-parameter.yaml } }",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          links:",
  "            next:",
  "              operationId: getStats",
  "              parameters: { $ref: missing-link.yaml }",
  "              requestBody: { $ref: missing-body.yaml }",
  "          content:",
  "            application/json:",
  "              schema:",
  "                type: object",
  "                default: { $ref: missing-default.yaml }",
  "                const: { $ref: missing-const.yaml }",
  "                enum: [{ $ref: missing-enum.yaml }]",
  "                examples: [{ $ref: missing-examples.yaml }]",
  "                properties:",
  "                  nested:",
  "                    type: object",
  "                    default: { deep: { $ref: missing-deep.yaml } }",
  "              examples:",
  "                actions:",
  "                  summary: GitHub's description has exactly this",
  "                  value:",
  "                    $ref: server-statistics-actions.yaml",
  "",
].join("\n");

describe("a $ref inside literal data", () => {
  it("is not a reference: the document is sent byte for byte", async () => {
    const result = await bundle({ "openapi.yaml": literalRefs });

    expect(result).toEqual({ text: literalRefs, bundled: false, standalone: true, files: ["openapi.yaml"] });
    expect(findExternalRefs(parse(literalRefs))).toEqual([]);
  });

  it("stays as written when the spec is bundled for another reason", async () => {
    const text = literalRefs.replace("schema: { type: object }", "schema: { $ref: ./q.yaml }");
    const result = await bundle({ "openapi.yaml": text, "q.yaml": "type: object\n" });
    const document = parse(result.text);
    const response = document.paths["/stats"].get.responses["200"];
    const schema = response.content["application/json"].schema;

    expect(result.bundled).toBe(true);
    expect(schema.default).toEqual({ $ref: "missing-default.yaml" });
    expect(schema.const).toEqual({ $ref: "missing-const.yaml" });
    expect(schema.enum).toEqual([{ $ref: "missing-enum.yaml" }]);
    expect(schema.examples).toEqual([{ $ref: "missing-examples.yaml" }]);
    expect(schema.properties.nested.default).toEqual({ deep: { $ref: "missing-deep.yaml" } });
    expect(response.content["application/json"].examples.actions.value).toEqual({
      $ref: "server-statistics-actions.yaml",
    });
    expect(response.links.next.parameters).toEqual({ $ref: "missing-link.yaml" });
    expect(response.links.next.requestBody).toEqual({ $ref: "missing-body.yaml" });
    expect(document.paths["/stats"].get.parameters[0].schema).toEqual({ $ref: "#/components/schemas/q" });
  });

  it("is data in an OpenAPI 3.2 Example's dataValue and serializedValue, even when the file is missing", async () => {
    const text = [
      "openapi: 3.2.0",
      "info: { title: T, version: '1' }",
      "components:",
      "  schemas:",
      "    A: { $ref: a.yaml }",
      "  examples:",
      "    one:",
      "      dataValue: { $ref: missing-data.yaml }",
      '      serializedValue: \'{"$ref": "missing-serialized.yaml"}\'',
      "",
    ].join("\n");
    const result = await bundle({ "openapi.yaml": text, "a.yaml": "type: object\n" });

    expect(result.bundled).toBe(true);
    expect(parse(result.text).components.examples.one.dataValue).toEqual({ $ref: "missing-data.yaml" });
    expect(findExternalRefs(parse(text))).toEqual(["a.yaml"]);
  });

  it("is data in a file reached by reference too, even when that file exists", async () => {
    const result = await bundle({
      "openapi.yaml":
        "openapi: 3.0.3\ninfo: { title: T, version: '1' }\ncomponents:\n  schemas:\n    A: { $ref: a.yaml }\n",
      "a.yaml": "type: object\ndefault: { $ref: b.yaml }\nenum: [{ $ref: b.yaml }]\n",
      "b.yaml": "type: string\n",
    });

    expect(parse(result.text).components.schemas.A).toEqual({
      type: "object",
      default: { $ref: "b.yaml" },
      enum: [{ $ref: "b.yaml" }],
    });
    expect(result.files).toEqual(["openapi.yaml", "a.yaml"]);
  });

  it("is data in Swagger 2.0: a parameter's default and enum, a response's examples", async () => {
    const text = [
      "swagger: '2.0'",
      "info: { title: T, version: '1' }",
      "paths:",
      "  /a:",
      "    get:",
      "      parameters:",
      "        - name: q",
      "          in: query",
      "          type: string",
      "          default: { $ref: missing.yaml }",
      "          enum: [{ $ref: missing.yaml }]",
      "          items: { type: string, default: { $ref: missing.yaml } }",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          schema: { type: object, example: { nested: { $ref: missing.yaml } } }",
      "          examples:",
      "            application/json: { $ref: missing.yaml }",
      "",
    ].join("\n");
    const result = await bundle({ "openapi.yaml": text });

    expect(result.bundled).toBe(false);
    expect(result.text).toBe(text);
  });
});

describe("an `example` that is wholly a $ref", () => {
  it("is replaced by the file it names when the file exists, as `redocly bundle` does", async () => {
    const result = await bundle({
      "openapi.yaml": [
        "openapi: 3.0.0",
        "info: { title: T, version: '1' }",
        "paths:",
        "  /a:",
        "    $ref: paths/a.yaml",
        "",
      ].join("\n"),
      "paths/a.yaml": [
        "get:",
        "  responses:",
        "    '200':",
        "      description: ok",
        "      content:",
        "        application/json:",
        "          example:",
        "            $ref: ../examples.yml#/droplet",
        "          schema:",
        "            type: object",
        "            example: { $ref: ../examples.yml#/droplet }",
        "",
      ].join("\n"),
      "examples.yml": "droplet:\n  id: 3164444\n  name: example.com\n",
    });
    const content = parse(result.text).paths["/a"].get.responses["200"].content["application/json"];

    expect(content.example).toEqual({ id: 3164444, name: "example.com" });
    expect(content.schema.example).toEqual({ id: 3164444, name: "example.com" });
  });

  it("stays as written, without a problem, when it names nothing readable", async () => {
    const text = [
      "openapi: 3.0.0",
      "info: { title: T, version: '1' }",
      "paths:",
      "  /a:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              example: { $ref: ./nowhere.yaml }",
      "              schema: { type: object, example: { $ref: 'https://example.com/x.json' } }",
      "",
    ].join("\n");
    const result = await bundle({ "openapi.yaml": text });

    // Not standalone: once ./nowhere.yaml can be read, the same root bundles it.
    expect(result).toEqual({ text, bundled: false, standalone: false, files: ["openapi.yaml"] });
  });
});

describe("a $ref in an extension", () => {
  it("is resolved, in the root and in referenced files", async () => {
    const result = await bundle({
      "openapi.yaml": [
        "openapi: 3.1.0",
        "info: { title: T, version: '1' }",
        "x-tagGroups: { $ref: ./groups.yaml }",
        "paths:",
        "  /a:",
        "    get:",
        "      x-badges: [{ $ref: ./badge.json }]",
        "      responses: { '200': { description: ok } }",
        "",
      ].join("\n"),
      "groups.yaml": "- name: General\n  tags: [a]\n",
      "badge.json": '{ "name": "Beta", "position": "before" }',
    });
    const document = parse(result.text);

    expect(document["x-tagGroups"]).toEqual([{ name: "General", tags: ["a"] }]);
    expect(document.paths["/a"].get["x-badges"]).toEqual([{ name: "Beta", position: "before" }]);
  });
});
