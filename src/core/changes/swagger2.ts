/**
 * Swagger 2.0 → the OpenAPI 3.0 shape, only as far as comparing needs, so that 2.0 is compared by the
 * same rules as 3.x (and a 2.0 → 3.0 migration compares like with like). Body and form parameters become a request
 * body with one entry per `consumes` media type, response schemas one entry per `produces` media type,
 * `definitions` become `components/schemas` (references rewritten), and `#/parameters` and `#/responses`
 * references are inlined (a body parameter is not a parameter in OpenAPI 3).
 */

import { pointerTokens } from "../bundling/pointer.ts";

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"] as const;
const PARAMETER_KEYS = new Set(["name", "in", "required", "description", "deprecated", "allowEmptyValue"]);
const SCHEMA_SKIP = new Set([...PARAMETER_KEYS, "collectionFormat", "schema"]);

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function isSwagger2(doc: unknown): boolean {
  return isObject(doc) && typeof doc.swagger === "string" && doc.swagger.startsWith("2");
}

function rewriteRefs(node: unknown, depth = 0): unknown {
  if (depth > 200) return node;
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, depth + 1));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith("#/definitions/")
        ? `#/components/schemas/${v.slice("#/definitions/".length)}`
        : rewriteRefs(v, depth + 1);
  }
  return out;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined;
}

function local(doc: Json, ref: unknown, group: string): unknown {
  if (typeof ref !== "string" || !ref.startsWith(`#/${group}/`)) return undefined;
  const tokens = pointerTokens(ref.slice(1));
  const table = doc[group];
  return tokens.length === 2 && isObject(table) ? table[tokens[1] as string] : undefined;
}

function deref(doc: Json, node: unknown, group: string): unknown {
  let current = node;
  for (let i = 0; i < 20 && isObject(current) && typeof current.$ref === "string"; i++) {
    const next = local(doc, current.$ref, group);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

function convertParameter(p: Json): Json {
  const out: Json = {};
  const schema: Json = {};
  for (const [k, v] of Object.entries(p)) {
    if (PARAMETER_KEYS.has(k)) out[k] = v;
    else if (!SCHEMA_SKIP.has(k)) schema[k] = v;
  }
  out.schema = rewriteRefs(schema);
  return out;
}

function content(mediaTypes: string[], schema: unknown): Json {
  return Object.fromEntries(mediaTypes.map((m) => [m, schema === undefined ? {} : { schema }]));
}

function convertOperation(doc: Json, op: Json, pathParams: unknown[]): Json {
  const consumes = strings(op.consumes) ?? strings(doc.consumes) ?? ["application/json"];
  const produces = strings(op.produces) ?? strings(doc.produces) ?? ["application/json"];
  const out: Json = {};
  for (const [k, v] of Object.entries(op)) {
    if (!["parameters", "responses", "consumes", "produces"].includes(k)) out[k] = rewriteRefs(v);
  }
  // Operation parameters override path-item parameters with the same name and location.
  const byKey = new Map<string, Json>();
  for (const raw of [...pathParams, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const p = deref(doc, raw, "parameters");
    if (isObject(p)) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
  }
  const parameters: Json[] = [];
  const form: Json[] = [];
  for (const p of byKey.values()) {
    if (p.in === "body") {
      out.requestBody = {
        ...(p.description === undefined ? {} : { description: p.description }),
        required: p.required === true,
        content: content(consumes, rewriteRefs(p.schema)),
      };
    } else if (p.in === "formData") form.push(p);
    else parameters.push(convertParameter(p));
  }
  if (form.length > 0 && out.requestBody === undefined) {
    const properties = Object.fromEntries(form.map((p) => [String(p.name), convertParameter(p).schema]));
    const required = form.filter((p) => p.required === true).map((p) => String(p.name));
    const formTypes = consumes.filter((m) => m.includes("form"));
    out.requestBody = {
      required: required.length > 0,
      content: content(formTypes.length > 0 ? formTypes : ["application/x-www-form-urlencoded"], {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
      }),
    };
  }
  if (parameters.length > 0) out.parameters = parameters;
  if (isObject(op.responses)) {
    const responses: Json = {};
    for (const [code, raw] of Object.entries(op.responses)) {
      const r = deref(doc, raw, "responses");
      if (!isObject(r)) continue;
      const response: Json = { description: r.description };
      if (r.schema !== undefined) response.content = content(produces, rewriteRefs(r.schema));
      if (isObject(r.headers)) {
        response.headers = Object.fromEntries(
          Object.entries(r.headers).map(([name, h]) => [name, isObject(h) ? convertParameter(h) : h]),
        );
      }
      responses[code] = response;
    }
    out.responses = responses;
  }
  return out;
}

/** `schemes`, `host` and `basePath` as OpenAPI 3 servers, one per scheme. */
function serversOf(doc: Json): Json[] {
  const host = typeof doc.host === "string" ? doc.host : undefined;
  const basePath = typeof doc.basePath === "string" ? doc.basePath : "";
  if (host === undefined) return basePath === "" ? [] : [{ url: basePath }];
  const schemes = strings(doc.schemes) ?? ["https"];
  return schemes.map((scheme) => ({ url: `${scheme}://${host}${basePath}` }));
}

/** The comparable OpenAPI 3.0 form of a Swagger 2.0 document. */
export function swagger2ToOpenApi3(doc: Json): Json {
  const paths: Json = {};
  if (isObject(doc.paths)) {
    for (const [path, rawItem] of Object.entries(doc.paths)) {
      if (!isObject(rawItem)) continue;
      const pathParams = Array.isArray(rawItem.parameters) ? rawItem.parameters : [];
      const item: Json = {};
      for (const [k, v] of Object.entries(rawItem)) {
        if ((METHODS as readonly string[]).includes(k) && isObject(v))
          item[k] = convertOperation(doc, v, pathParams);
        else if (k !== "parameters") item[k] = v;
      }
      paths[path] = item;
    }
  }
  const out: Json = { openapi: "3.0.3", info: doc.info, paths };
  const servers = serversOf(doc);
  if (servers.length > 0) out.servers = servers;
  if (doc.security !== undefined) out.security = doc.security;
  out.components = {
    schemas: isObject(doc.definitions) ? rewriteRefs(doc.definitions) : {},
    securitySchemes: isObject(doc.securityDefinitions) ? doc.securityDefinitions : {},
  };
  return out;
}
