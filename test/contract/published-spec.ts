/**
 * Validation against the service's published OpenAPI description (`@gitbook/api`'s spec/openapi.json,
 * OpenAPI 3.1, whose schemas are JSON Schema 2020-12). Reusable by every test that checks a request or
 * a response: the functions return readable errors, empty when the value is valid.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
}

type PathItem = Record<string, Operation>;

interface PublishedSpec {
  paths: Record<string, PathItem>;
  components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
}

const SPEC_ID = "https://gitbook.test/published-openapi.json";
const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

// The package's `exports` hide spec/: find it next to the entry point the package does export.
const specPath = join(
  packageRoot(createRequire(import.meta.url).resolve("@gitbook/api")),
  "spec",
  "openapi.json",
);

function packageRoot(entry: string): string {
  let dir = dirname(entry);
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

/** The published description, parsed once. */
export const publishedSpec: PublishedSpec = JSON.parse(readFileSync(specPath, "utf8"));

// The published description uses OpenAPI keywords (discriminator, example, x-*) unknown to JSON Schema:
// strict mode off ignores them. The document is added whole so that `#/components/...` refs resolve.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
// ajv-formats is CommonJS: under NodeNext its default import is the whole module; the plugin is `.default`.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const formatsModule = addFormatsPlugin as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;
addFormats(ajv);
ajv.addFormat("int32", {
  type: "number",
  validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
});
ajv.addSchema(publishedSpec as object, SPEC_ID);

const compiled = new Map<string, ValidateFunction>();

/** Validates `value` against the schema at `pointer` (a JSON pointer into the published description). */
export function validateAt(pointer: string[], value: unknown): string[] {
  const fragment = pointer.map((token) =>
    encodeURIComponent(token.replaceAll("~", "~0").replaceAll("/", "~1")),
  );
  const ref = `${SPEC_ID}#/${fragment.join("/")}`;
  let validate = compiled.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${describeParams(e.params)}`,
  );
}

function describeParams(params: Record<string, unknown>): string {
  const interesting = Object.entries(params).filter(([key]) =>
    ["allowedValues", "additionalProperty"].includes(key),
  );
  return interesting.length === 0
    ? ""
    : ` (${interesting.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")})`;
}

/** Finds an operation of the published description by its operationId (e.g. "createOrUpdateOpenAPISpecBySlug"). */
export function findOperation(operationId: string): { path: string; method: string; operation: Operation } {
  for (const [path, item] of Object.entries(publishedSpec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation?.operationId === operationId) return { path, method, operation };
    }
  }
  throw new Error(`The published description has no operation "${operationId}"`);
}

/** Validates a JSON request body against the operation's `requestBody` schema. */
export function validateRequestBody(operationId: string, body: unknown): string[] {
  const { path, method, operation } = findOperation(operationId);
  if (operation.requestBody?.content?.["application/json"]?.schema === undefined) {
    return [`${operationId} takes no JSON request body`];
  }
  return validateAt(["paths", path, method, "requestBody", "content", "application/json", "schema"], body);
}

/**
 * Validates a response against the published description. `pathTemplate` is written as in the
 * description ("/orgs/{organizationId}/openapi/{specSlug}"), with or without the "/v1" prefix. A status
 * the operation does not declare is accepted only for errors (>= 400), validated against the generic
 * `Error` schema; a body-less status (204) must come without a body (`undefined`).
 */
export function validateResponse(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
): string[] {
  const path = pathTemplate.replace(/^\/v1(?=\/)/, "");
  const lower = method.toLowerCase();
  const operation = publishedSpec.paths[path]?.[lower];
  if (operation === undefined)
    return [`The published description has no operation ${method.toUpperCase()} ${path}`];
  const response = operation.responses?.[String(status)];
  if (response === undefined) {
    if (status >= 400) return validateAt(["components", "schemas", "Error"], body);
    return [`${method.toUpperCase()} ${path} does not declare status ${status}`];
  }
  if (response.$ref !== undefined) {
    const name = response.$ref.replace("#/components/responses/", "");
    if (publishedSpec.components.responses[name]?.content?.["application/json"]?.schema === undefined) {
      return body === undefined ? [] : [`status ${status} has no body in the description`];
    }
    return validateAt(["components", "responses", name, "content", "application/json", "schema"], body);
  }
  if (response.content?.["application/json"]?.schema === undefined) {
    return body === undefined
      ? []
      : [`${method.toUpperCase()} ${path} ${status} has no body in the description, got one`];
  }
  return validateAt(
    ["paths", path, lower, "responses", String(status), "content", "application/json", "schema"],
    body,
  );
}
