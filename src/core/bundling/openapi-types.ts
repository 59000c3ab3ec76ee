/**
 * What each position of an OpenAPI 2.0 to 3.2 document holds, as far as bundling needs to know: where a
 * `$ref` is a reference, where contents are literal data (never resolved), which referenced nodes become
 * components, and where discriminator mappings are; an unknown position is walked as `anyNode`.
 */
export interface NodeType {
  readonly name: string;
  /** The group a referenced node of this type is named in: `components/<group>` (3.x) or `<group>` (2.0). */
  readonly group?: string;
  /** Literal data: never walked, a `$ref` inside is a value like any other. */
  readonly data?: true;
  /**
   * An `example`: literal data too, except that an `example` that is wholly `{$ref: <file>}` naming a file
   * of the workspace is replaced by that file, as `redocly bundle` does (and as real specs rely on); one
   * that names nothing readable stays as written, and is never a problem.
   */
  readonly example?: true;
  /** A Schema's `discriminator`, whose `mapping` values may name other files. */
  readonly discriminator?: true;
  /** Fixed fields; any other key is an extension or unknown, walked as `anyNode`. */
  readonly fields?: Readonly<Record<string, NodeType>>;
  /** A map: the type of every value (`fields` are not consulted). */
  readonly values?: NodeType;
  /** In a map, `x-` keys are extensions (Paths, Responses, Callback) rather than names. */
  readonly extensions?: true;
}

export type SpecVersion = "oas2" | "oas3" | "unknown";

/** Anything: every key is walked, every `$ref` resolved. Extensions and unknown fields. */
export const anyNode: NodeType = { name: "any" };
const data: NodeType = { name: "data", data: true };
const example: NodeType = { name: "example", data: true, example: true };

export interface SpecTypes {
  root: NodeType;
  schema: NodeType;
  /** Groups in the order new ones are added to the bundle. */
  groups: readonly string[];
}

/** The type of the value of `key` inside a node of type `type`. */
export function childType(type: NodeType, key: string): NodeType {
  if (type.values) return type.extensions && key.startsWith("x-") ? anyNode : type.values;
  return type.fields?.[key] ?? anyNode;
}

/** Which OpenAPI version a root document declares (a quoted or unquoted `openapi: 3…` or `swagger: 2…`). */
export function specVersion(root: unknown): SpecVersion {
  if (typeof root !== "object" || root === null || Array.isArray(root)) return "unknown";
  const { openapi, swagger } = root as Record<string, unknown>;
  if ((typeof openapi === "string" || typeof openapi === "number") && String(openapi).startsWith("3")) {
    return "oas3";
  }
  if ((typeof swagger === "string" || typeof swagger === "number") && String(swagger).startsWith("2")) {
    return "oas2";
  }
  return "unknown";
}

const map = (name: string, values: NodeType, extensions?: true): NodeType => ({
  name: `${name} map`,
  values,
  ...(extensions ? { extensions } : {}),
});

function buildTypes(version: "oas2" | "oas3"): SpecTypes {
  const v3 = version === "oas3";
  const group = (oas3: string, oas2?: string) => {
    const name = v3 ? oas3 : oas2;
    return name === undefined ? {} : { group: name };
  };
  // Types refer to each other in cycles; fields are filled in once every object exists.
  const schema = { name: "Schema", ...group("schemas", "definitions"), fields: {} } as NodeType & {
    fields: Record<string, NodeType>;
  };
  const schemas = map("Schema", schema);
  const discriminator: NodeType = {
    name: "Discriminator",
    discriminator: true,
    fields: { propertyName: data },
  };
  Object.assign(schema.fields, {
    properties: schemas,
    patternProperties: schemas,
    dependentSchemas: schemas,
    dependencies: schemas,
    $defs: schemas,
    definitions: schemas,
    ...Object.fromEntries(
      [
        "additionalProperties",
        "items",
        "prefixItems",
        "additionalItems",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
      ].map((key) => [key, schema]),
    ),
    discriminator,
    example,
    examples: data,
    default: data,
    const: data,
    enum: data,
  });

  // OpenAPI 3.2 adds `dataValue` and `serializedValue` beside `value`: literal data as well.
  const exampleObject: NodeType = {
    name: "Example",
    ...group("examples"),
    fields: { value: data, dataValue: data, serializedValue: data },
  };
  const examples = map("Example", exampleObject);
  // Swagger 2.0 `items` of a non-body parameter or header: literal `default` and `enum`.
  const items = { name: "Items", fields: {} } as NodeType & { fields: Record<string, NodeType> };
  Object.assign(items.fields, { items, default: data, enum: data });
  const header = { name: "Header", ...group("headers"), fields: {} } as NodeType & {
    fields: Record<string, NodeType>;
  };
  const headers = map("Header", header);
  const encoding: NodeType = { name: "Encoding", fields: { headers } };
  const mediaType: NodeType = {
    name: "MediaType",
    fields: {
      schema,
      itemSchema: schema,
      example,
      examples,
      encoding: map("Encoding", encoding),
      prefixEncoding: encoding,
      itemEncoding: encoding,
    },
  };
  const content = map("MediaType", mediaType);
  const parameterFields = {
    schema,
    content,
    example,
    examples,
    items,
    default: data,
    enum: data,
  };
  Object.assign(header.fields, parameterFields);
  const parameter: NodeType = {
    name: "Parameter",
    ...group("parameters", "parameters"),
    fields: parameterFields,
  };
  const link: NodeType = { name: "Link", ...group("links"), fields: { parameters: data, requestBody: data } };
  const response: NodeType = {
    name: "Response",
    ...group("responses", "responses"),
    fields: { headers, content, links: map("Link", link), schema, examples: data },
  };
  const requestBody: NodeType = { name: "RequestBody", ...group("requestBodies"), fields: { content } };
  const operation = { name: "Operation", fields: {} } as NodeType & { fields: Record<string, NodeType> };
  const pathItem: NodeType = {
    name: "PathItem",
    fields: {
      ...Object.fromEntries(
        ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"].map((method) => [
          method,
          operation,
        ]),
      ),
      additionalOperations: map("Operation", operation),
      parameters: parameter,
    },
  };
  const callback: NodeType = { ...map("PathItem", pathItem, true), name: "Callback", ...group("callbacks") };
  Object.assign(operation.fields, {
    parameters: parameter,
    requestBody,
    responses: map("Response", response, true),
    callbacks: map("Callback", callback),
  });
  const securityScheme: NodeType = { name: "SecurityScheme", ...group("securitySchemes") };
  const paths = map("PathItem", pathItem, true);

  if (!v3) {
    return {
      root: {
        name: "Root",
        fields: {
          paths,
          definitions: schemas,
          parameters: map("Parameter", parameter),
          responses: map("Response", response),
        },
      },
      schema,
      groups: ["definitions", "parameters", "responses"],
    };
  }
  const components: NodeType = {
    name: "Components",
    fields: {
      schemas,
      responses: map("Response", response),
      parameters: map("Parameter", parameter),
      examples,
      requestBodies: map("RequestBody", requestBody),
      headers,
      securitySchemes: map("SecurityScheme", securityScheme),
      links: map("Link", link),
      callbacks: map("Callback", callback),
      pathItems: map("PathItem", pathItem),
      mediaTypes: content,
    },
  };
  return {
    root: { name: "Root", fields: { paths, webhooks: map("PathItem", pathItem), components } },
    schema,
    groups: [
      "schemas",
      "responses",
      "parameters",
      "examples",
      "requestBodies",
      "headers",
      "securitySchemes",
      "links",
      "callbacks",
    ],
  };
}

const oas2 = buildTypes("oas2");
const oas3 = buildTypes("oas3");
const unknown: SpecTypes = { root: anyNode, schema: anyNode, groups: [] };

export function typesFor(version: SpecVersion): SpecTypes {
  return version === "oas3" ? oas3 : version === "oas2" ? oas2 : unknown;
}
