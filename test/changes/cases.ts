/**
 * The classification table: one base document per OpenAPI version and one change per case. Tests assert
 * every row; `scripts/change-table.ts` prints the change review guide's table from the same rows.
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
  /** Kinds that must not be reported: each a false finding the engine once made on this pair. */
  readonly notKinds?: readonly string[];
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
      name: "success response removed",
      version,
      expected: "breaking",
      kind: "response-removed",
      change: (d) => delete d.paths["/pets/{id}"].get.responses["200"],
    },
    {
      name: "error response removed",
      version,
      expected: "other",
      kind: "error-response-removed",
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
      kind: "property-removed",
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
      kind: "property-added",
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

const getPet = (doc: Doc) => doc.paths["/pets/{id}"].get;
const okContent = (doc: Doc) => getPet(doc).responses["200"];
const c30 = (c: Omit<ChangeCase, "version">): ChangeCase => ({ ...c, version: "3.0" });

/** One case per rule of src/core/changes/rules.ts that the common cases leave out, and the known traps (3.0). */
const rules30: ChangeCase[] = [
  c30({
    name: "operation deprecated",
    expected: "other",
    kind: "operation-deprecated",
    change: (d) => {
      listPets(d).deprecated = true;
    },
  }),
  c30({
    name: "operationId changed",
    expected: "other",
    kind: "operation-id-changed",
    change: (d) => {
      listPets(d).operationId = "listAllPets";
    },
  }),
  c30({
    name: "parameter removed",
    expected: "breaking",
    kind: "parameter-removed",
    change: (d) => {
      listPets(d).parameters.pop();
    },
  }),
  c30({
    name: "parameter made optional",
    expected: "other",
    kind: "parameter-made-optional",
    prepare: (d) => {
      param(d, "tag").required = true;
    },
    change: (d) => {
      param(d, "tag").required = false;
    },
  }),
  c30({
    name: "parameter serialization changed",
    expected: "breaking",
    kind: "parameter-serialization-changed",
    change: (d) => {
      param(d, "tag").explode = false;
    },
  }),
  c30({
    name: "required request body added",
    expected: "breaking",
    kind: "required-request-body-added",
    change: (d) => {
      d.paths["/pets/{id}"].delete.requestBody = {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      };
    },
  }),
  c30({
    name: "optional request body added",
    expected: "other",
    kind: "request-body-added",
    change: (d) => {
      d.paths["/pets/{id}"].delete.requestBody = {
        content: { "application/json": { schema: { type: "object" } } },
      };
    },
  }),
  c30({
    name: "request body removed",
    expected: "breaking",
    kind: "request-body-removed",
    change: (d) => {
      delete createPet(d).requestBody;
    },
  }),
  c30({
    name: "request body made optional",
    expected: "other",
    kind: "request-body-made-optional",
    prepare: (d) => {
      createPet(d).requestBody.required = true;
    },
    change: (d) => {
      createPet(d).requestBody.required = false;
    },
  }),
  c30({
    name: "request media type added",
    expected: "other",
    kind: "request-media-type-added",
    change: (d) => {
      createPet(d).requestBody.content["text/plain"] = { schema: { type: "string" } };
    },
  }),
  c30({
    name: "response status added",
    expected: "other",
    kind: "response-added",
    change: (d) => {
      getPet(d).responses["410"] = { description: "Gone" };
    },
  }),
  c30({
    name: "response media type added",
    expected: "other",
    kind: "response-media-type-added",
    change: (d) => {
      okContent(d).content["application/xml"] = { schema: { type: "object" } };
    },
  }),
  c30({
    name: "required response header removed",
    expected: "breaking",
    kind: "response-header-removed",
    prepare: (d) => {
      okContent(d).headers = { "X-Rate-Limit": { required: true, schema: { type: "integer" } } };
    },
    change: (d) => {
      delete okContent(d).headers;
    },
  }),
  c30({
    name: "optional response header removed",
    expected: "breaking",
    kind: "response-header-removed",
    prepare: (d) => {
      okContent(d).headers = { "X-Rate-Limit": { schema: { type: "integer" } } };
    },
    change: (d) => {
      delete okContent(d).headers;
    },
  }),
  c30({
    name: "response header added",
    expected: "other",
    kind: "response-header-added",
    change: (d) => {
      okContent(d).headers = { "X-Rate-Limit": { schema: { type: "integer" } } };
    },
  }),
  c30({
    name: "response header type changed",
    expected: "breaking",
    kind: "type-changed",
    prepare: (d) => {
      okContent(d).headers = { "X-Rate-Limit": { schema: { type: "integer" } } };
    },
    change: (d) => {
      okContent(d).headers["X-Rate-Limit"].schema.type = "string";
    },
  }),
  c30({
    name: "enum removed",
    expected: "other",
    kind: "enum-removed",
    change: (d) => {
      delete paramSchema(d, "status").enum;
    },
  }),
  c30({
    name: "request property made required",
    expected: "breaking",
    kind: "property-made-required",
    change: (d) => {
      schemas(d).NewPet.required.push("tag");
    },
  }),
  c30({
    name: "response property no longer required",
    expected: "breaking",
    kind: "property-made-optional",
    change: (d) => {
      schemas(d).Pet.required = ["id"];
    },
  }),
  c30({
    name: "format changed",
    expected: "breaking",
    kind: "format-changed",
    prepare: (d) => {
      schemas(d).NewPet.properties.tag.format = "email";
    },
    change: (d) => {
      schemas(d).NewPet.properties.tag.format = "uri";
    },
  }),
  c30({
    name: "request format added",
    expected: "breaking",
    kind: "format-added",
    change: (d) => {
      schemas(d).NewPet.properties.tag.format = "email";
    },
  }),
  c30({
    name: "response format removed",
    expected: "breaking",
    kind: "format-removed",
    change: (d) => {
      delete schemas(d).Pet.properties.id.format;
    },
  }),
  c30({
    name: "request maxLength lowered",
    expected: "breaking",
    kind: "constraint-narrowed",
    prepare: (d) => {
      schemas(d).NewPet.properties.tag.maxLength = 100;
    },
    change: (d) => {
      schemas(d).NewPet.properties.tag.maxLength = 50;
    },
  }),
  c30({
    name: "request maxLength raised",
    expected: "other",
    kind: "constraint-widened",
    prepare: (d) => {
      schemas(d).NewPet.properties.tag.maxLength = 100;
    },
    change: (d) => {
      schemas(d).NewPet.properties.tag.maxLength = 200;
    },
  }),
  c30({
    name: "request refuses additional properties",
    expected: "breaking",
    kind: "additional-properties-refused",
    change: (d) => {
      schemas(d).NewPet.additionalProperties = false;
    },
  }),
  c30({
    name: "response allows additional properties",
    expected: "other",
    kind: "additional-properties-allowed",
    prepare: (d) => {
      schemas(d).Pet.additionalProperties = false;
    },
    change: (d) => {
      delete schemas(d).Pet.additionalProperties;
    },
  }),
  c30({
    name: "default changed",
    expected: "other",
    kind: "default-changed",
    prepare: (d) => {
      paramSchema(d, "limit").default = 20;
    },
    change: (d) => {
      paramSchema(d, "limit").default = 50;
    },
  }),
  c30({
    name: "response oneOf variant added",
    expected: "breaking",
    kind: "variant-added",
    prepare: (d) => {
      schemas(d).Pet.properties.owner = {
        oneOf: [
          { title: "person", type: "object" },
          { title: "org", type: "string" },
        ],
      };
    },
    change: (d) => {
      schemas(d).Pet.properties.owner.oneOf.push({ title: "team", type: "object" });
    },
  }),
  c30({
    name: "request oneOf variant removed",
    expected: "breaking",
    kind: "variant-removed",
    prepare: (d) => {
      schemas(d).NewPet.properties.tag = { oneOf: [{ type: "string" }, { type: "integer" }] };
    },
    change: (d) => {
      schemas(d).NewPet.properties.tag.oneOf.pop();
    },
  }),
  c30({
    name: "discriminator property changed",
    expected: "breaking",
    kind: "discriminator-changed",
    prepare: (d) => {
      schemas(d).Pet.discriminator = { propertyName: "name" };
    },
    change: (d) => {
      schemas(d).Pet.discriminator = { propertyName: "status" };
    },
  }),
  c30({
    name: "security scheme replaced",
    expected: "breaking",
    kind: "security-changed",
    prepare: (d) => {
      d.security = [{ apiKey: [] }];
    },
    change: (d) => {
      d.security = [{ oauth: ["pets"] }];
    },
  }),
  c30({
    name: "security alternative added",
    expected: "other",
    kind: "security-relaxed",
    prepare: (d) => {
      d.security = [{ apiKey: [] }];
    },
    change: (d) => {
      d.security = [{ apiKey: [] }, { oauth: [] }];
    },
  }),
  c30({
    name: "servers changed",
    expected: "other",
    kind: "servers-changed",
    change: (d) => {
      d.servers = [{ url: "https://api.example.com/v2" }];
    },
  }),
  c30({
    name: "schema nested past the comparison's depth",
    expected: "other",
    kind: "not-compared",
    prepare: (d) => {
      let node = schemas(d).Pet;
      for (let i = 0; i < 60; i++) {
        node.properties.next = { type: "object", properties: {} };
        node = node.properties.next;
      }
    },
    change: (d) => {
      let node = schemas(d).Pet;
      for (let i = 0; i < 60; i++) node = node.properties.next;
      node.properties.leaf = { type: "string" };
    },
  }),
  // The traps.
  c30({
    name: "$ref with siblings (nullable) → bare $ref: the target's enum is kept, only null goes",
    expected: "other",
    kind: "type-narrowed",
    prepare: (d) => {
      schemas(d).Status = { type: "string", enum: ["available", "sold"] };
      schemas(d).Pet.properties.status = {
        type: "string",
        $ref: "#/components/schemas/Status",
        nullable: true,
        description: "Status",
      };
    },
    change: (d) => {
      schemas(d).Pet.properties.status = { $ref: "#/components/schemas/Status" };
    },
  }),
  c30({
    name: "allOf member loses a property (response)",
    expected: "breaking",
    kind: "property-removed",
    prepare: (d) => {
      schemas(d).Named = { type: "object", properties: { nickname: { type: "string" } } };
      schemas(d).Pet = { allOf: [{ $ref: "#/components/schemas/Named" }, schemas(d).Pet] };
    },
    change: (d) => {
      delete schemas(d).Named.properties.nickname;
    },
  }),
  c30({
    name: "parameter by $ref made required",
    expected: "breaking",
    kind: "parameter-made-required",
    prepare: (d) => {
      d.components.parameters = { Tag: { name: "tag", in: "query", schema: { type: "string" } } };
      listPets(d).parameters[2] = { $ref: "#/components/parameters/Tag" };
    },
    change: (d) => {
      d.components.parameters.Tag.required = true;
    },
  }),
  c30({
    name: "response by $ref loses its media type",
    expected: "breaking",
    kind: "response-media-type-removed",
    prepare: (d) => {
      d.components.responses = { Pet: okContent(d) };
      getPet(d).responses["200"] = { $ref: "#/components/responses/Pet" };
    },
    change: (d) => {
      d.components.responses.Pet.content = {
        "application/xml": d.components.responses.Pet.content["application/json"],
      };
    },
  }),
  c30({
    name: "response enum value added",
    expected: "other",
    kind: "enum-value-added",
    change: (d) => {
      schemas(d).Pet.properties.status.enum.push("pending");
    },
  }),
  c30({
    name: "property now write-only (gone from responses)",
    expected: "breaking",
    kind: "property-removed",
    change: (d) => {
      schemas(d).Pet.properties.name.writeOnly = true;
    },
  }),
];

/** Found on real releases (docs/design/change-review-cases.md), each once a wrong or missed finding. */
const fromRealHistory: ChangeCase[] = [
  c30({
    name: "property deprecated",
    expected: "other",
    kind: "property-deprecated",
    change: (d) => {
      schemas(d).Pet.properties.name.deprecated = true;
    },
  }),
  c30({
    name: "default removed",
    expected: "other",
    kind: "default-changed",
    prepare: (d) => {
      paramSchema(d, "limit").default = 10;
    },
    change: (d) => {
      delete paramSchema(d, "limit").default;
    },
  }),
  {
    name: "basePath changed (servers)",
    version: "2.0",
    expected: "other",
    kind: "servers-changed",
    prepare: (d) => {
      d.host = "api.example.com";
      d.basePath = "/v1.54";
    },
    change: (d) => {
      d.basePath = "/v1.55";
    },
  },
];

/**
 * Keywords beside `oneOf`/`anyOf` constrain every variant (issue 27): each side is read as the set of
 * instances it accepts, so a rewrite into an equivalent form says nothing, and what the variants
 * together still allow is not said removed.
 */
const keywordsBesideVariants: ChangeCase[] = [
  c30({
    name: "properties beside oneOf moved into every variant: none removed (response)",
    expected: "other",
    kind: "property-added",
    notKinds: ["property-removed"],
    prepare: (d) => {
      schemas(d).Pet = {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "integer" }, name: { type: "string" } },
        oneOf: [
          { title: "dog", properties: { bark: { type: "boolean" } } },
          { title: "cat", properties: { purr: { type: "boolean" } } },
        ],
      };
    },
    change: (d) => {
      const { id, name } = schemas(d).Pet.properties;
      schemas(d).Pet = {
        type: "object",
        required: ["id", "name"],
        oneOf: [
          { title: "dog", properties: { id, name, bark: { type: "boolean" }, wag: { type: "boolean" } } },
          { title: "cat", properties: { id, name, purr: { type: "boolean" } } },
        ],
      };
    },
  }),
  c30({
    name: "type: object beside the oneOf a schema became: properties every variant has are not removed",
    expected: "breaking",
    kind: "variant-added",
    notKinds: ["property-removed"],
    change: (d) => {
      const { properties, required } = schemas(d).Pet;
      schemas(d).Pet = {
        type: "object",
        oneOf: [
          { required, properties: { ...properties, bark: { type: "boolean" } } },
          { required, properties: { ...properties, purr: { type: "boolean" } } },
        ],
      };
    },
  }),
  c30({
    name: "an enum split over nested oneOf variants keeps every value (request)",
    expected: "other",
    kind: "variant-added",
    notKinds: ["enum-value-removed", "enum-added"],
    prepare: (d) => {
      schemas(d).NewPet.properties.key = {
        type: "object",
        properties: { kty: { type: "string", enum: ["RSA", "EC"] } },
      };
    },
    change: (d) => {
      schemas(d).NewPet.properties.key = {
        oneOf: [
          {
            oneOf: [
              {
                type: "object",
                properties: { kty: { type: "string", enum: ["RSA"] }, n: { type: "string" } },
              },
            ],
          },
          { type: "object", properties: { kty: { type: "string", enum: ["EC"] }, crv: { type: "string" } } },
        ],
      };
    },
  }),
  c30({
    name: "a oneOf that becomes a variant of a wider oneOf: its variants still match their own (response)",
    expected: "breaking",
    kind: "variant-added",
    notKinds: ["property-removed", "property-made-optional"],
    prepare: (d) => {
      schemas(d).Paragraph = {
        type: "object",
        required: ["type", "nodes"],
        properties: { type: { type: "string", enum: ["paragraph"] }, nodes: { type: "array" } },
      };
      schemas(d).Divider = {
        type: "object",
        required: ["type"],
        properties: { type: { type: "string", enum: ["divider"] } },
      };
      schemas(d).Essentials = {
        oneOf: [{ $ref: "#/components/schemas/Paragraph" }, { $ref: "#/components/schemas/Divider" }],
      };
      schemas(d).Table = {
        type: "object",
        required: ["type", "rows"],
        properties: { type: { type: "string", enum: ["table"] }, rows: { type: "array" } },
      };
      schemas(d).Pet.properties.notes = { type: "array", items: { $ref: "#/components/schemas/Essentials" } };
    },
    change: (d) => {
      schemas(d).Pet.properties.notes.items = {
        oneOf: [{ $ref: "#/components/schemas/Essentials" }, { $ref: "#/components/schemas/Table" }],
      };
    },
  }),
];

/** The case's two documents. */
export function documents(c: ChangeCase): { before: Doc; after: Doc } {
  const before = baseDocument(c.version);
  c.prepare?.(before);
  const after = structuredClone(before);
  c.change(after);
  return { before, after };
}

export const cases: readonly ChangeCase[] = [
  ...common("3.0"),
  ...common("3.1"),
  ...common("2.0"),
  ...only31,
  ...rules30,
  ...fromRealHistory,
  ...keywordsBesideVariants,
];
