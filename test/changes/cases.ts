/**
 * The classification table: one base document per OpenAPI version and one change per case. Tests assert
 * every row; `scripts/change-table.ts` prints the README's table from the same rows.
 */

export type Version = "3.0" | "3.1" | "2.0";

export interface ChangeCase {
  readonly name: string;
  readonly version: Version;
  readonly expected: "breaking" | "other";
  /** The `kind` our module must report for this change. */
  readonly kind: string;
  /** Edits the base document into this case's "before" document (applied to both sides). */
  readonly prepare?: (doc: Doc) => void;
  /** Changes a deep copy of the "before" document into the "after" document. */
  readonly change: (doc: Doc) => void;
}

// biome-ignore lint/suspicious/noExplicitAny: test documents are edited freely
export type Doc = any;

const petSchema30 = () => ({
  type: "object",
  required: ["id", "name"],
  properties: {
    id: { type: "integer", format: "int64" },
    name: { type: "string", description: "The pet's name" },
    status: { type: "string", enum: ["available", "sold"] },
  },
});

const newPetSchema = () => ({
  type: "object",
  required: ["name"],
  properties: { name: { type: "string" }, tag: { type: "string" } },
});

const base3 = (version: "3.0.3" | "3.1.0"): Doc => ({
  openapi: version,
  info: { title: "Pets", version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        description: "Lists pets",
        parameters: [
          { name: "limit", in: "query", required: false, schema: { type: "integer" } },
          { name: "status", in: "query", schema: { type: "string", enum: ["available", "sold"] } },
          { name: "tag", in: "query", schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "A list of pets",
            content: {
              "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } } },
            },
          },
        },
      },
      post: {
        operationId: "createPet",
        requestBody: {
          required: false,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/NewPet" } },
            "application/xml": { schema: { $ref: "#/components/schemas/NewPet" } },
          },
        },
        responses: {
          "201": {
            description: "Created",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/Pet" } },
              "application/xml": { schema: { $ref: "#/components/schemas/Pet" } },
            },
          },
        },
      },
    },
    "/pets/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      get: {
        operationId: "getPet",
        responses: {
          "200": {
            description: "A pet",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
          "404": { description: "Not found" },
        },
      },
      delete: { operationId: "deletePet", responses: { "204": { description: "Deleted" } } },
    },
  },
  components: {
    schemas: { Pet: petSchema30(), NewPet: newPetSchema() },
    securitySchemes: { apiKey: { type: "apiKey", name: "X-Api-Key", in: "header" } },
  },
});

const base20 = (): Doc => ({
  swagger: "2.0",
  info: { title: "Pets", version: "1.0.0" },
  consumes: ["application/json"],
  produces: ["application/json"],
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        description: "Lists pets",
        parameters: [
          { name: "limit", in: "query", required: false, type: "integer" },
          { name: "status", in: "query", type: "string", enum: ["available", "sold"] },
          { name: "tag", in: "query", type: "string" },
        ],
        responses: {
          "200": {
            description: "A list of pets",
            schema: { type: "array", items: { $ref: "#/definitions/Pet" } },
          },
        },
      },
      post: {
        operationId: "createPet",
        consumes: ["application/json", "application/xml"],
        produces: ["application/json", "application/xml"],
        parameters: [{ name: "body", in: "body", required: false, schema: { $ref: "#/definitions/NewPet" } }],
        responses: { "201": { description: "Created", schema: { $ref: "#/definitions/Pet" } } },
      },
    },
    "/pets/{id}": {
      parameters: [{ name: "id", in: "path", required: true, type: "integer" }],
      get: {
        operationId: "getPet",
        responses: {
          "200": { description: "A pet", schema: { $ref: "#/definitions/Pet" } },
          "404": { description: "Not found" },
        },
      },
      delete: { operationId: "deletePet", responses: { "204": { description: "Deleted" } } },
    },
  },
  definitions: { Pet: petSchema30(), NewPet: newPetSchema() },
  securityDefinitions: { apiKey: { type: "apiKey", name: "X-Api-Key", in: "header" } },
});

export function baseDocument(version: Version): Doc {
  if (version === "2.0") return base20();
  return base3(version === "3.0" ? "3.0.3" : "3.1.0");
}

const schemas = (doc: Doc) => doc.components?.schemas ?? doc.definitions;
const listPets = (doc: Doc) => doc.paths["/pets"].get;
const createPet = (doc: Doc) => doc.paths["/pets"].post;
const param = (doc: Doc, name: string) =>
  listPets(doc).parameters.find((p: { name: string }) => p.name === name);
/** The parameter's schema: the Schema Object in 3.x, the parameter itself in 2.0. */
const paramSchema = (doc: Doc, name: string) => {
  const p = param(doc, name);
  return p.schema ?? p;
};

/** Rules that read the same in every version. */
function common(version: Version): ChangeCase[] {
  return [
    {
      name: "operation removed",
      version,
      expected: "breaking",
      kind: "operation-removed",
      change: (d) => delete d.paths["/pets/{id}"].delete,
    },
    {
      name: "path removed",
      version,
      expected: "breaking",
      kind: "path-removed",
      change: (d) => delete d.paths["/pets/{id}"],
    },
    {
      name: "response status removed",
      version,
      expected: "breaking",
      kind: "response-removed",
      change: (d) => delete d.paths["/pets/{id}"].get.responses["404"],
    },
    {
      name: "required parameter added",
      version,
      expected: "breaking",
      kind: "required-parameter-added",
      change: (d) =>
        listPets(d).parameters.push(
          version === "2.0"
            ? { name: "X-Request-Id", in: "header", required: true, type: "string" }
            : { name: "X-Request-Id", in: "header", required: true, schema: { type: "string" } },
        ),
    },
    {
      name: "parameter made required",
      version,
      expected: "breaking",
      kind: "parameter-made-required",
      change: (d) => {
        param(d, "limit").required = true;
      },
    },
    {
      name: "required request-body property added",
      version,
      expected: "breaking",
      kind: "required-property-added",
      change: (d) => {
        schemas(d).NewPet.properties.owner = { type: "string" };
        schemas(d).NewPet.required.push("owner");
      },
    },
    {
      name: "request body made required",
      version,
      expected: "breaking",
      kind: "request-body-made-required",
      change: (d) => {
        if (version === "2.0") createPet(d).parameters[0].required = true;
        else createPet(d).requestBody.required = true;
      },
    },
    {
      name: "type narrowed (number → integer)",
      version,
      expected: "breaking",
      kind: "type-narrowed",
      prepare: (d) => {
        paramSchema(d, "limit").type = "number";
      },
      change: (d) => {
        paramSchema(d, "limit").type = "integer";
      },
    },
    {
      name: "type changed (string → integer)",
      version,
      expected: "breaking",
      kind: "type-changed",
      change: (d) => {
        paramSchema(d, "tag").type = "integer";
      },
    },
    {
      name: "type narrowed (string → enum)",
      version,
      expected: "breaking",
      kind: "enum-added",
      change: (d) => {
        paramSchema(d, "tag").enum = ["dog", "cat"];
      },
    },
    {
      name: "request enum value removed",
      version,
      expected: "breaking",
      kind: "enum-value-removed",
      change: (d) => {
        paramSchema(d, "status").enum = ["available"];
      },
    },
    {
      name: "response property removed",
      version,
      expected: "breaking",
      kind: "response-property-removed",
      change: (d) => {
        delete schemas(d).Pet.properties.status;
      },
    },
    {
      name: "security requirement added to an operation",
      version,
      expected: "breaking",
      kind: "security-added",
      change: (d) => {
        listPets(d).security = [{ apiKey: [] }];
      },
    },
    {
      name: "security requirement added globally",
      version,
      expected: "breaking",
      kind: "security-added",
      change: (d) => {
        d.security = [{ apiKey: [] }];
      },
    },
    {
      name: "request media type removed",
      version,
      expected: "breaking",
      kind: "request-media-type-removed",
      change: (d) => {
        if (version === "2.0") createPet(d).consumes = ["application/json"];
        else delete createPet(d).requestBody.content["application/xml"];
      },
    },
    {
      name: "response media type removed",
      version,
      expected: "breaking",
      kind: "response-media-type-removed",
      change: (d) => {
        if (version === "2.0") createPet(d).produces = ["application/json"];
        else delete createPet(d).responses["201"].content["application/xml"];
      },
    },
    {
      name: "operation added",
      version,
      expected: "other",
      kind: "operation-added",
      change: (d) => {
        d.paths["/pets/{id}"].put = {
          operationId: "updatePet",
          responses: { "204": { description: "Updated" } },
        };
      },
    },
    {
      name: "optional parameter added",
      version,
      expected: "other",
      kind: "parameter-added",
      change: (d) =>
        listPets(d).parameters.push(
          version === "2.0"
            ? { name: "sort", in: "query", type: "string" }
            : { name: "sort", in: "query", schema: { type: "string" } },
        ),
    },
    {
      name: "response property added",
      version,
      expected: "other",
      kind: "response-property-added",
      change: (d) => {
        schemas(d).Pet.properties.age = { type: "integer" };
      },
    },
    {
      name: "description changed",
      version,
      expected: "other",
      kind: "description-changed",
      change: (d) => {
        listPets(d).description = "Lists all the pets";
        schemas(d).Pet.properties.name.description = "What the pet answers to";
      },
    },
    {
      name: "request enum value added",
      version,
      expected: "other",
      kind: "enum-value-added",
      change: (d) => {
        paramSchema(d, "status").enum = ["available", "sold", "pending"];
      },
    },
    {
      name: "type widened (integer → number)",
      version,
      expected: "other",
      kind: "type-widened",
      change: (d) => {
        paramSchema(d, "limit").type = "number";
      },
    },
  ];
}

/** OpenAPI 3.1 only: type arrays. */
const only31: ChangeCase[] = [
  {
    name: "null no longer accepted (type array narrowed)",
    version: "3.1",
    expected: "breaking",
    kind: "type-narrowed",
    prepare: (d) => {
      paramSchema(d, "limit").type = ["integer", "null"];
    },
    change: (d) => {
      paramSchema(d, "limit").type = "integer";
    },
  },
  {
    name: "null accepted (type array widened)",
    version: "3.1",
    expected: "other",
    kind: "type-widened",
    change: (d) => {
      paramSchema(d, "limit").type = ["integer", "null"];
    },
  },
];

/** The case's two documents. */
export function documents(c: ChangeCase): { before: Doc; after: Doc } {
  const before = baseDocument(c.version);
  c.prepare?.(before);
  const after = structuredClone(before);
  c.change(after);
  return { before, after };
}

export const cases: readonly ChangeCase[] = [...common("3.0"), ...common("3.1"), ...common("2.0"), ...only31];
