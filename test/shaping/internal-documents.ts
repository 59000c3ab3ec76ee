/**
 * The property of `remove-internal` (issue 26), for the test (test/shaping/remove-internal.property.test.ts,
 * a fixed seed and a few hundred documents) and for longer runs (scripts/remove-internal-property.ts):
 * documents of every version (Swagger 2.0, OpenAPI 3.0, 3.1, 3.2) with parts marked internal at random
 * places, under random names (`x-` names among them), shaped for a public audience, must hold
 *
 * - no marking that counts (any truthy `x-internal`) anywhere;
 * - no name of a removed part anywhere (a component, property, header, security scheme, tag, operation,
 *   path, webhook, callback or link that is gone leaves no `$ref`, mapping, link, requirement or tag
 *   naming it);
 * - no operation all of whose tags are marked;
 * - no reference that does not resolve (`$ref`, discriminator mapping, link `operationRef`);
 * - the official schema's approval, when the input had it;
 * - and the document as it was, when nothing in it counted as marked.
 *
 * The checks read the output as plain JSON, not with the walk under test. Plain `node:assert`, so that a
 * script runs it without vitest.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { removeInternal } from "../../src/core/shaping/remove-internal.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";

type Json = Record<string, unknown>;
export type Version = "2.0" | "3.0.3" | "3.1.1" | "3.2.0";

export interface Generated {
  document: Json;
  /** Named parts: `id` is a text only that part holds (its `x-id`); `name` what names it elsewhere. */
  parts: Array<{ name: string; id: string }>;
  /** A truthy marking was placed. */
  marked: boolean;
}

const TRUTHY: readonly unknown[] = [true, "true", "yes", 1, "1", "TRUE"];
const FALSY: readonly unknown[] = [false, 0, "", null];

/**
 * Builds a document from a tape of choices (fast-check shrinks the tape, so a failure shrinks to a small
 * document). A choice past the tape's end is 0: the simplest.
 */
export function buildDocument(version: Version, tape: readonly number[]): Generated {
  let at = 0;
  const choose = (n: number) => (at < tape.length ? (tape[at++] as number) % n : 0);
  let counter = 0;
  const parts: Generated["parts"] = [];
  let marked = false;
  const v2 = version === "2.0";
  const v31 = version === "3.1.1" || version === "3.2.0";
  const v32 = version === "3.2.0";

  /** A unique name, often with an `x-` start (component names allow `[a-zA-Z0-9._-]`). */
  const name = (base: string) => `${["", "x-", "X-", ""][choose(4)]}${base}-q${counter++}z`;
  // How often a part is marked: never, rarely, sometimes, often.
  const odds = [0, 40, 15, 6][choose(4)] as number;
  /** Gives `object` its id, and maybe a marking. */
  const own = (object: Json, partName?: string): Json => {
    const id = `id${counter++}z`;
    object["x-id"] = id;
    if (partName !== undefined) parts.push({ name: partName, id });
    if (odds > 0) {
      const roll = choose(odds);
      if (roll === 0) {
        object["x-internal"] = TRUTHY[choose(TRUTHY.length)];
        marked = true;
      } else if (roll === 1) object["x-internal"] = FALSY[choose(FALSY.length)];
    }
    return object;
  };

  const schemaNames = Array.from({ length: 1 + choose(4) }, () => name("Schema"));
  const schemaRef = (schema: string) => (v2 ? `#/definitions/${schema}` : `#/components/schemas/${schema}`);

  /** A schema, nested at most `depth` more levels. */
  const schema = (depth: number): Json => {
    const kind = depth <= 0 ? choose(2) : choose(v31 ? 11 : v2 ? 8 : 9);
    switch (kind) {
      case 0:
        return own({ type: "string" });
      case 1: {
        const target = schemaNames[choose(schemaNames.length)] as string;
        return { $ref: schemaRef(target) };
      }
      case 2:
      case 3: {
        const properties: Json = {};
        const required: string[] = [];
        for (let i = 0, n = 1 + choose(3); i < n; i++) {
          const property = choose(12) === 0 ? "x-internal" : name("prop");
          properties[property] =
            property === "x-internal" ? { type: "boolean" } : schemaWithPart(depth - 1, property);
          if (choose(2) === 0 && !required.includes(property)) required.push(property);
        }
        return own({ type: "object", properties, ...(required.length > 0 ? { required } : {}) });
      }
      case 4:
        return own({ type: "array", items: schema(depth - 1) });
      case 5: {
        const members = [schema(depth - 1), schema(depth - 1)];
        // A member's properties required beside the allOf.
        const names = members.flatMap((member) => Object.keys((member.properties as Json | undefined) ?? {}));
        const required = [...new Set(names.filter(() => choose(2) === 0))];
        return own({ allOf: members, ...(required.length > 0 ? { required } : {}) });
      }
      case 6: {
        const members = [0, 1, 2].map(() => schemaNames[choose(schemaNames.length)] as string);
        if (v2) return own({ type: "object", additionalProperties: schema(depth - 1) });
        const mapping: Json = {};
        for (const member of members) mapping[name("kind")] = choose(2) === 0 ? schemaRef(member) : member;
        return own({
          oneOf: members.map((member) => ({ $ref: schemaRef(member) })),
          discriminator: { propertyName: "kind", mapping },
        });
      }
      case 7:
        return own({ type: "object", additionalProperties: schema(depth - 1) });
      case 8:
        return own({ not: schema(depth - 1) });
      case 9: {
        const def = name("def");
        return own({ prefixItems: [schema(depth - 1)], $defs: { [def]: schemaWithPart(depth - 1, def) } });
      }
      default:
        return own({
          if: schema(depth - 1),
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword
          then: schema(depth - 1),
          else: schema(depth - 1),
          patternProperties: { "^x-": schema(depth - 1) },
        });
    }
  };
  /** A schema that is a named part (a property, a `$defs` entry): it needs an id of its own. */
  const schemaWithPart = (depth: number, partName: string): Json => {
    const made = schema(depth);
    // A reference gets a holder of its own, so that its name has an id to go with.
    const part = typeof made.$ref === "string" ? own({ allOf: [made] }) : made;
    parts.push({ name: partName, id: part["x-id"] as string });
    return part;
  };

  const document: Json = v2
    ? { swagger: "2.0", info: { title: "Generated", version: "1.0.0" } }
    : { openapi: version, info: { title: "Generated", version: "1.0.0" } };

  // Security schemes, and the document's requirements.
  const schemes: Json = {};
  const schemeNames = Array.from({ length: choose(3) }, () => name("scheme"));
  const scopesOf = new Map<string, string[]>();
  for (const scheme of schemeNames)
    schemes[scheme] = own(
      v2 || choose(2) === 0
        ? { type: "apiKey", in: "header", name: `H-${counter++}` }
        : { type: "oauth2", flows: oauthFlows(scheme) },
      scheme,
    );
  /** OAuth flows, each declaring a scope of its own (a part: it goes with its flow). */
  function oauthFlows(scheme: string): Json {
    const flows: Json = {};
    const scopes: string[] = [];
    for (const flow of ["implicit", "clientCredentials"]) {
      if (flow === "clientCredentials" && Object.keys(flows).length > 0 && choose(2) === 0) continue;
      const scope = name("scope");
      const made = own({
        ...(flow === "implicit"
          ? { authorizationUrl: "https://example.com/authorize" }
          : { tokenUrl: "https://example.com/token" }),
        scopes: { [scope]: "a scope" },
      });
      parts.push({ name: scope, id: made["x-id"] as string });
      scopes.push(scope);
      flows[flow] = made;
    }
    scopesOf.set(scheme, scopes);
    return flows;
  }
  const requirement = (): Json[] =>
    schemeNames.length === 0
      ? []
      : [
          ...new Set(
            Array.from({ length: 1 + choose(2) }, () => schemeNames[choose(schemeNames.length)] as string),
          ),
        ].map((scheme) => ({ [scheme]: scopesOf.get(scheme) ?? [] }));
  if (schemeNames.length > 0 && choose(2) === 0) document.security = requirement();

  // Tags, some with a parent.
  const tagNames = Array.from({ length: choose(4) }, () => name("tag"));
  if (tagNames.length > 0) {
    document.tags = tagNames.map((tag, i) => {
      const declared: Json = { name: tag };
      if (i > 0 && choose(3) === 0) declared["x-parent"] = tagNames[0];
      return own(declared, tag);
    });
  }

  // Other components, named now and made last: parameters and responses (every version), and in 3.x
  // headers, request bodies, examples and links.
  const several = (base: string, only3 = false) =>
    only3 && v2 ? [] : Array.from({ length: choose(3) }, () => name(base));
  const components: Record<string, string[]> = {
    parameters: several("Param"),
    responses: several("Resp"),
    headers: several("Hdr", true),
    requestBodies: several("Body", true),
    examples: several("Ex", true),
    links: several("Lnk", true),
  };
  /** A reference to one of a group's components, now and then. */
  const pickRef = (group: string): Json | undefined => {
    const names = components[group] as string[];
    if (names.length === 0 || choose(3) !== 0) return undefined;
    const picked = names[choose(names.length)] as string;
    return { $ref: v2 ? `#/${group}/${picked}` : `#/components/${group}/${picked}` };
  };
  const parameter = (): Json =>
    pickRef("parameters") ??
    own(
      v2
        ? { name: name("param"), in: "query", type: "string" }
        : { name: name("param"), in: "query", schema: schema(1) },
    );
  const mediaType = (depth: number): Json => {
    const made = own({ schema: schema(depth) });
    if (!v2 && choose(3) === 0) {
      const example = name("example");
      const ref = pickRef("examples");
      made.examples = { [example]: ref ?? own({ value: { n: 1 } }, example) };
    }
    return made;
  };

  // Operations, everywhere they can be; links are added once every operationId is known.
  const operations: Array<{ id: string; pointer: string; parameters: string[] }> = [];
  const responsesForLinks: Json[] = [];
  const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");
  const operation = (pointer: string, withCallbacks: boolean): Json => {
    const operationId = name("op");
    const parameters: string[] = [];
    operations.push({ id: operationId, pointer, parameters });
    const response: Json = { description: "ok" };
    if (choose(2) === 0) {
      const header = choose(8) === 0 ? "x-internal" : name("header");
      const body: Json = v2 ? { type: "string" } : { schema: schema(1) };
      response.headers = { [header]: header === "x-internal" ? body : own(body, header) };
      const shared = pickRef("headers");
      if (shared) (response.headers as Json)[name("sharedHeader")] = shared;
    }
    if (v2) {
      if (choose(2) === 0) response.schema = schema(2);
    } else {
      if (choose(2) === 0) response.content = { "application/json": mediaType(2) };
      responsesForLinks.push(response);
    }
    const responses: Json = { "200": own(response) };
    if (choose(3) === 0) responses["404"] = own({ description: "not found" });
    const sharedResponse = pickRef("responses");
    if (sharedResponse) responses.default = sharedResponse;
    const made: Json = { operationId, responses };
    if (tagNames.length > 0 && choose(3) !== 0)
      made.tags = [...new Set([0, 1].slice(0, 1 + choose(2)).map(() => tagNames[choose(tagNames.length)]))];
    if (choose(3) === 0) {
      const inline = parameter();
      if (typeof inline.name === "string") {
        parameters.push(inline.name);
        parts.push({ name: inline.name, id: inline["x-id"] as string });
      }
      made.parameters = [inline];
    }
    if (!v2 && choose(3) === 0)
      made.requestBody = pickRef("requestBodies") ?? own({ content: { "application/json": mediaType(2) } });
    if (schemeNames.length > 0 && choose(3) === 0) made.security = requirement();
    if (!v2 && withCallbacks && choose(4) === 0) {
      const callback = name("callback");
      const expression = "{$request.body#/callbackUrl}";
      const item = own({
        post: operation(
          `${pointer}/callbacks/${escapeToken(callback)}/${escapeToken(expression)}/post`,
          false,
        ),
      });
      // 3.1's and 3.2's official schemas read a callback's `x-` keys as path items: no extension there,
      // and the callback's name goes with its only path item.
      if (v31) {
        parts.push({ name: callback, id: item["x-id"] as string });
        made.callbacks = { [callback]: { [expression]: item } };
      } else made.callbacks = { [callback]: own({ [expression]: item }, callback) };
    }
    return own(made, operationId);
  };
  const methods = v2
    ? ["get", "put", "post", "delete"]
    : v32
      ? ["get", "post", "query", "delete"]
      : ["get", "post", "trace"];
  const pathItem = (pointer: string): Json => {
    const item: Json = {};
    for (const method of methods) if (choose(2) === 0) item[method] = operation(`${pointer}/${method}`, true);
    if (v32 && choose(3) === 0) {
      const extra: Json = {};
      for (const method of ["PURGE", "COPY", "LOCK"])
        if (choose(2) === 0) extra[method] = operation(`${pointer}/additionalOperations/${method}`, true);
      if (Object.keys(extra).length > 0) item.additionalOperations = extra;
    }
    if (Object.keys(item).length === 0) item.get = operation(`${pointer}/get`, true);
    if (choose(4) === 0) item.parameters = [parameter()];
    return item;
  };
  const paths: Json = {};
  for (let i = 0, n = 1 + choose(3); i < n; i++) {
    const path = name("p");
    paths[`/${path}`] = own(pathItem(`/paths/${escapeToken(`/${path}`)}`), path);
  }
  document.paths = paths;
  if (v31 && choose(2) === 0) {
    const hook = name("hook");
    document.webhooks = { [hook]: own(pathItem(`/webhooks/${escapeToken(hook)}`), hook) };
  }
  for (const response of responsesForLinks) {
    if (choose(2) !== 0 || operations.length === 0) continue;
    const target = operations[choose(operations.length)] as (typeof operations)[number];
    const link = name("link");
    const shared = pickRef("links");
    response.links = {
      [link]:
        shared ??
        own(
          {
            ...(choose(2) === 0
              ? { operationId: target.id }
              : { operationRef: `#${target.pointer.split("/").map(encodeURIComponent).join("/")}` }),
            ...(target.parameters.length > 0
              ? {
                  parameters: Object.fromEntries(
                    target.parameters.map((parameter) => [
                      choose(2) === 0 ? parameter : `query.${parameter}`,
                      "$response.body#/id",
                    ]),
                  ),
                }
              : {}),
          },
          link,
        ),
    };
  }

  // The components last: operations above may not reference all of them (unreached ones stay).
  const schemas: Json = {};
  for (const schemaName of schemaNames) {
    const made = schema(3);
    schemas[schemaName] = typeof made.$ref === "string" ? own({ allOf: [made] }, schemaName) : made;
    if (typeof made.$ref !== "string") parts.push({ name: schemaName, id: made["x-id"] as string });
  }
  const made: Record<string, Json> = {};
  const makers: Record<string, () => Json> = {
    parameters: () => parameter(),
    responses: () =>
      v2
        ? { description: "shared", schema: schema(1) }
        : { description: "shared", content: { "application/json": mediaType(1) } },
    headers: () => ({ schema: schema(1) }),
    requestBodies: () => ({ content: { "application/json": mediaType(1) } }),
    examples: () => ({ value: { n: 2 } }),
    links: () => ({ operationId: (operations[choose(operations.length)] as { id: string }).id }),
  };
  for (const [group, names] of Object.entries(components)) {
    if (names.length === 0) continue;
    const members: Json = {};
    for (const member of names) {
      let body = (makers[group] as () => Json)();
      // A component that is itself a reference gets no id: a parameter is made inline here.
      if (typeof body.$ref === "string")
        body = own({
          name: name("param"),
          in: "query",
          ...(v2 ? { type: "string" } : { schema: { type: "string" } }),
        });
      else if (body["x-id"] === undefined) own(body);
      parts.push({ name: member, id: body["x-id"] as string });
      members[member] = body;
    }
    made[group] = members;
  }
  if (v2) {
    document.definitions = schemas;
    if (schemeNames.length > 0) document.securityDefinitions = schemes;
    Object.assign(document, made);
  } else {
    document.components = {
      schemas,
      ...made,
      ...(schemeNames.length > 0 ? { securitySchemes: schemes } : {}),
    };
  }
  return { document, parts, marked };
}

export const versions = fc.constantFrom<Version>("2.0", "3.0.3", "3.1.1", "3.2.0");
export const generated = fc
  .record({
    version: versions,
    tape: fc.array(fc.nat({ max: 0xffff }), { minLength: 1000, maxLength: 1500 }),
  })
  .map(({ version, tape }) => buildDocument(version, tape));

/** Every `x-internal` text, number or boolean that counts as a marking (an object there is an entry). */
export function markings(document: unknown): unknown[] {
  const found: unknown[] = [];
  const stack = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const mark = Array.isArray(node) ? undefined : (node as Json)["x-internal"];
    if (mark && typeof mark !== "object") found.push(mark);
    stack.push(...Object.values(node));
  }
  return found;
}

/** Local references of any kind that do not resolve: `$ref`s, mapping values, link `operationRef`s. */
function unresolved(document: Json): string[] {
  const schemas = ((document.components as Json | undefined)?.schemas ?? document.definitions ?? {}) as Json;
  const resolves = (ref: string) => {
    if (!ref.startsWith("#")) return Object.hasOwn(schemas, ref); // a mapping's bare schema name
    let node: unknown = document;
    for (const token of decodeURIComponent(ref.slice(1)).split("/").slice(1)) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return false;
      node = (node as Json)[key];
    }
    return true;
  };
  const broken: string[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (!Array.isArray(node)) {
      const object = node as Json;
      for (const key of ["$ref", "operationRef"])
        if (typeof object[key] === "string" && !resolves(object[key] as string))
          broken.push(object[key] as string);
      const mapping = (object.discriminator as Json | undefined)?.mapping;
      if (typeof mapping === "object" && mapping !== null)
        for (const value of Object.values(mapping)) if (!resolves(String(value))) broken.push(String(value));
    }
    stack.push(...Object.values(node));
  }
  return broken;
}

/** The ids of the operations whose tags are all marked tags. */
function operationsOfInternalTags(document: Json): string[] {
  const internal = new Set(
    ((document.tags ?? []) as Json[]).filter((tag) => Boolean(tag["x-internal"])).map((tag) => tag.name),
  );
  const found: string[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const { operationId, tags } = node as Json;
    if (
      typeof operationId === "string" &&
      Array.isArray(tags) &&
      tags.length > 0 &&
      tags.every((tag) => internal.has(tag))
    )
      found.push((node as Json)["x-id"] as string);
    stack.push(...Object.values(node));
  }
  return found;
}

/** Shapes one generated document and checks it (throws an AssertionError naming what failed). */
export function checkShaped({ document: input, parts, marked }: Generated): void {
  const version = String(input.openapi ?? input.swagger);
  const inputValid = structuralIssues(input, version)?.length === 0;
  const output = structuredClone(input);
  removeInternal(output);
  const text = JSON.stringify(output);
  assert.deepEqual(markings(output), [], "a marking that counts is left");
  for (const { name, id } of parts)
    if (!text.includes(`"${id}"`)) assert.ok(!text.includes(name), `the name of removed ${name} is left`);
  assert.deepEqual(unresolved(output), [], "a reference does not resolve");
  for (const id of operationsOfInternalTags(input))
    assert.ok(!text.includes(`"${id}"`), `operation ${id}, all of whose tags are internal, is left`);
  if (inputValid) assert.deepEqual(structuralIssues(output, version), [], "the output is not valid");
  if (!marked) assert.deepEqual(output, input, "a document with nothing marked was changed");
}

/** Runs the property over `numRuns` documents from `seed`. */
export function assertRemoveInternal(options: { seed: number; numRuns: number }): void {
  fc.assert(fc.property(generated, checkShaped), {
    seed: options.seed,
    numRuns: options.numRuns,
    endOnFailure: false,
  });
}
