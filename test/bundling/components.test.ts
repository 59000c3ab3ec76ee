import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec } from "../../src/core/bundling/index.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

// biome-ignore lint/suspicious/noExplicitAny: the tests read into parsed documents.
async function bundled(files: Record<string, string>, root = "openapi.yaml"): Promise<any> {
  tree = tempTree();
  tree.write(files);
  return parse((await bundleSpec(tree.path(root), { workspace: tree.root })).text);
}

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const info = "info: { title: T, version: '1' }";

describe("named components", () => {
  it("are named after their file, or the last token of the pointer into a file that holds several", async () => {
    const document = await bundled({
      "openapi.yaml": yaml(
        "openapi: 3.0.3",
        info,
        "paths:",
        "  /pets:",
        "    get:",
        "      parameters: [{ $ref: parameters.yaml#/Limit }]",
        "      requestBody: { $ref: bodies/NewPet.yaml }",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          headers: { X-Rate: { $ref: headers/X-Rate.yaml } }",
        "          links: { self: { $ref: links/Self.yaml } }",
        "          content:",
        "            application/json:",
        "              schema: { $ref: schemas/Pet.yaml }",
        "              examples: { one: { $ref: examples/OnePet.yaml } }",
        "        default: { $ref: responses.yaml#/components/responses/Error }",
        "      callbacks: { onEvent: { $ref: callbacks/OnEvent.yaml } }",
        "components:",
        "  securitySchemes: { key: { $ref: security/ApiKey.yaml } }",
      ),
      "parameters.yaml": yaml("Limit: { name: limit, in: query, schema: { type: integer } }"),
      "bodies/NewPet.yaml": yaml("content: { application/json: { schema: { $ref: ../schemas/Pet.yaml } } }"),
      "headers/X-Rate.yaml": yaml("schema: { type: integer }"),
      "links/Self.yaml": yaml("operationId: getPets"),
      "schemas/Pet.yaml": yaml("type: object", "properties: { name: { type: string } }"),
      "examples/OnePet.yaml": yaml("value: { name: Rex }"),
      "responses.yaml": yaml("components: { responses: { Error: { description: failed } } }"),
      "callbacks/OnEvent.yaml": yaml(
        "'{$request.body#/url}': { post: { responses: { '200': { description: ok } } } }",
      ),
      "security/ApiKey.yaml": yaml("type: apiKey", "in: header", "name: X-Key"),
    });

    expect(document.components).toEqual({
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } },
      schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } },
      responses: { Error: { description: "failed" } },
      parameters: { Limit: { name: "limit", in: "query", schema: { type: "integer" } } },
      examples: { OnePet: { value: { name: "Rex" } } },
      requestBodies: {
        NewPet: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
      },
      headers: { "X-Rate": { schema: { type: "integer" } } },
      links: { Self: { operationId: "getPets" } },
      callbacks: {
        OnEvent: { "{$request.body#/url}": { post: { responses: { "200": { description: "ok" } } } } },
      },
    });
    const get = document.paths["/pets"].get;
    expect(get.parameters).toEqual([{ $ref: "#/components/parameters/Limit" }]);
    expect(get.requestBody).toEqual({ $ref: "#/components/requestBodies/NewPet" });
    expect(get.responses.default).toEqual({ $ref: "#/components/responses/Error" });
    expect(get.responses["200"].content["application/json"]).toEqual({
      schema: { $ref: "#/components/schemas/Pet" },
      examples: { one: { $ref: "#/components/examples/OnePet" } },
    });
    expect(get.callbacks.onEvent).toEqual({ $ref: "#/components/callbacks/OnEvent" });
  });

  it("keep the root's names: a root entry that only refers to a file holds the file", async () => {
    const document = await bundled({
      "openapi.yaml": yaml(
        "openapi: 3.1.0",
        info,
        "paths:",
        "  /pets: { get: { responses: { '200': { $ref: responses/Ok.yaml } } } }",
        "components:",
        "  schemas:",
        "    PetModel: { $ref: schemas/Pet.yaml }",
        "    Pet: { type: string, description: the root's own Pet }",
        "  responses:",
        "    Ok: { description: the root's own Ok }",
      ),
      "responses/Ok.yaml": yaml(
        "description: ok",
        "content: { application/json: { schema: { $ref: ../schemas/Pet.yaml } } }",
      ),
      "schemas/Pet.yaml": yaml("type: object"),
    });

    expect(document.components.schemas).toEqual({
      PetModel: { type: "object" },
      Pet: { type: "string", description: "the root's own Pet" },
    });
    expect(document.components.responses).toEqual({
      Ok: { description: "the root's own Ok" },
      "responses-Ok": {
        description: "ok",
        content: { "application/json": { schema: { $ref: "#/components/schemas/PetModel" } } },
      },
    });
    expect(document.paths["/pets"].get.responses["200"]).toEqual({
      $ref: "#/components/responses/responses-Ok",
    });
  });

  it("that clash are qualified by their folders, then their file, then numbered, the same on every run", async () => {
    const refs = [
      "v2/Pet.yaml",
      "v1/Pet.yaml",
      "v1/Pet.json",
      "v1/common.yaml#/Pet",
      "v1/shared.yaml#/Pet",
      "v2/common.yaml#/Pet",
      "my schemas/Pet (old).yaml",
      "Pet.yaml",
    ];
    const rootReferring = (order: string[]) =>
      yaml(
        "openapi: 3.1.0",
        info,
        "paths:",
        "  /a:",
        "    get:",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content:",
        "            application/json:",
        "              schema:",
        "                oneOf:",
        ...order.map((ref) => `                  - $ref: ${ref}`),
      );
    const files = {
      "openapi.yaml": rootReferring(refs),
      "v1/Pet.yaml": yaml("title: v1/Pet.yaml"),
      "v1/Pet.json": '{ "title": "v1/Pet.json" }',
      "v2/Pet.yaml": yaml("title: v2/Pet.yaml"),
      "v1/common.yaml": yaml("Pet: { title: v1/common.yaml#/Pet }"),
      "v1/shared.yaml": yaml("Pet: { title: v1/shared.yaml#/Pet }"),
      "v2/common.yaml": yaml("Pet: { title: v2/common.yaml#/Pet }"),
      "my schemas/Pet (old).yaml": yaml("title: my schemas/Pet (old).yaml"),
      "Pet.yaml": yaml("title: Pet.yaml"),
    };
    const first = await bundled(files);
    const titles = Object.fromEntries(
      Object.entries(first.components.schemas as Record<string, { title: string }>).map(([name, schema]) => [
        name,
        schema.title,
      ]),
    );

    // Named in path order: Pet.yaml, my schemas/…, v1/Pet.json, v1/Pet.yaml, v1/common.yaml, …
    expect(titles).toEqual({
      Pet: "Pet.yaml",
      "Pet-2": "v1/Pet.yaml",
      Pet_old_: "my schemas/Pet (old).yaml",
      "common-Pet": "v1/common.yaml#/Pet",
      "shared-Pet": "v1/shared.yaml#/Pet",
      "v1-Pet": "v1/Pet.json",
      "v2-Pet": "v2/Pet.yaml",
      "v2-common-Pet": "v2/common.yaml#/Pet",
    });
    const oneOf = first.paths["/a"].get.responses["200"].content["application/json"].schema.oneOf;
    expect(oneOf.map((entry: { $ref: string }) => entry.$ref.replace("#/components/schemas/", ""))).toEqual([
      "v2-Pet",
      "Pet-2",
      "v1-Pet",
      "common-Pet",
      "shared-Pet",
      "v2-common-Pet",
      "Pet_old_",
      "Pet",
    ]);

    // The same names whatever the order of the references.
    tree?.remove();
    const second = await bundled({ ...files, "openapi.yaml": rootReferring([...refs].reverse()) });
    expect(second.components.schemas).toEqual(first.components.schemas);
  });

  it("in Swagger 2.0 go into definitions, parameters and responses", async () => {
    const document = await bundled(
      {
        "swagger.yaml": yaml(
          "swagger: '2.0'",
          info,
          "paths:",
          "  /pets:",
          "    get:",
          "      parameters: [{ $ref: parameters/limit.yaml }]",
          "      responses:",
          "        '200': { description: ok, schema: { $ref: definitions/Pet.json } }",
          "        default: { $ref: responses/Error.yaml }",
          "definitions:",
          "  Error: { type: object }",
        ),
        "parameters/limit.yaml": yaml("name: limit", "in: query", "type: integer"),
        "definitions/Pet.json": '{ "type": "object" }',
        "responses/Error.yaml": yaml(
          "description: failed",
          "schema: { $ref: '../swagger.yaml#/definitions/Error' }",
        ),
      },
      "swagger.yaml",
    );

    expect(document.definitions).toEqual({ Error: { type: "object" }, Pet: { type: "object" } });
    expect(document.parameters).toEqual({ limit: { name: "limit", in: "query", type: "integer" } });
    expect(document.responses).toEqual({
      Error: { description: "failed", schema: { $ref: "#/definitions/Error" } },
    });
    expect(document.paths["/pets"].get).toEqual({
      parameters: [{ $ref: "#/parameters/limit" }],
      responses: {
        "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } },
        default: { $ref: "#/responses/Error" },
      },
    });
  });
});

describe("discriminator mappings", () => {
  it("that name files point to the schemas' components, wherever the mapping is written", async () => {
    const document = await bundled({
      "openapi.yaml": yaml(
        "openapi: 3.0.3",
        info,
        "paths:",
        "  /pets:",
        "    post:",
        "      requestBody: { content: { application/json: { schema: { $ref: schemas/Pet.yaml } } } }",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content:",
        "            application/json:",
        "              schema:",
        "                oneOf: [{ $ref: schemas/Cat.yaml }, { $ref: schemas/Dog.yaml }]",
        "                discriminator:",
        "                  propertyName: kind",
        "                  mapping:",
        "                    cat: schemas/Cat.yaml",
        "                    dog: ./schemas/Dog.yaml",
        "                    bird: '#/components/schemas/Bird'",
        "components:",
        "  schemas:",
        "    Bird: { type: object }",
      ),
      "schemas/Pet.yaml": yaml(
        "oneOf:",
        "  - $ref: Cat.yaml",
        "  - $ref: Dog.yaml",
        "  - $ref: more.yaml#/Fish",
        "discriminator:",
        "  propertyName: kind",
        "  mapping:",
        "    cat: Cat.yaml",
        "    dog: ./Dog.yaml",
        "    fish: more.yaml#/Fish",
        "    lizard: more.yaml#/Lizard",
        "    self: '#'",
        "    bird: Bird",
      ),
      "schemas/Cat.yaml": yaml("type: object"),
      "schemas/Dog.yaml": yaml("type: object"),
      "schemas/more.yaml": yaml("Fish: { type: object }", "Lizard: { type: object }"),
    });

    expect(Object.keys(document.components.schemas)).toEqual(["Bird", "Cat", "Dog", "Fish", "Lizard", "Pet"]);
    expect(document.components.schemas.Pet.discriminator.mapping).toEqual({
      cat: "#/components/schemas/Cat",
      dog: "#/components/schemas/Dog",
      fish: "#/components/schemas/Fish",
      lizard: "#/components/schemas/Lizard",
      self: "#/components/schemas/Pet",
      bird: "Bird",
    });
    const inRoot = document.paths["/pets"].post.responses["200"].content["application/json"].schema;
    expect(inRoot.discriminator.mapping).toEqual({
      cat: "#/components/schemas/Cat",
      dog: "#/components/schemas/Dog",
      bird: "#/components/schemas/Bird",
    });
  });

  it("that name a missing file are a problem, with the mapping's position", async () => {
    tree = tempTree();
    tree.write({
      "openapi.yaml": yaml(
        "openapi: 3.0.3",
        info,
        "components:",
        "  schemas:",
        "    Pet:",
        "      oneOf: [{ $ref: Cat.yaml }]",
        "      discriminator:",
        "        propertyName: kind",
        "        mapping:",
        "          cat: Cat.yaml",
        "          dog: Dog.yaml",
      ),
      "Cat.yaml": yaml("type: object"),
    });
    const error = await bundleSpec(tree.path("openapi.yaml"), { workspace: tree.root }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({
      problems: [{ file: "openapi.yaml", ref: "Dog.yaml", line: 11, column: 16 }],
    });
  });
});
