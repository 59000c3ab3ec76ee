/**
 * Compares two OpenAPI documents (3.0, 3.1 or Swagger 2.0, each already bundled into one document) over
 * a normalised model: paths matched with their template variables unnamed, operations, parameters (path
 * parameters by position, the others by place and name), request bodies and responses by media type,
 * and schemas through {@link SchemaComparer}, once per pair of schemas. Every change is sorted into
 * breaking and other by the table in ./rules.ts.
 */
import { truncateMiddle } from "../text/truncate.ts";
import { Collector, type Place } from "./collector.ts";
import { comparable, isObject, type Json, Resolver } from "./document.ts";
import { matchPaths } from "./paths.ts";
import type { ChangeKind, Direction } from "./rules.ts";
import { type Finding, SchemaComparer } from "./schema-diff.ts";
import { jsonText, SchemaViews } from "./schema-view.ts";
import { securityChanges } from "./security.ts";
import { quote } from "./text.ts";
import { type ApiChanges, MAX_MESSAGE_LENGTH } from "./types.ts";
import { UnchangedSchemas } from "./unchanged-schemas.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

class Comparison {
  readonly out = new Collector();
  readonly before: Resolver;
  readonly after: Resolver;
  readonly schemas: SchemaComparer;
  readonly a: Json;
  readonly b: Json;

  constructor(a: Json, b: Json) {
    this.a = a;
    this.b = b;
    this.before = new Resolver(a);
    this.after = new Resolver(b);
    this.schemas = new SchemaComparer(
      new SchemaViews(this.before),
      new SchemaViews(this.after),
      new UnchangedSchemas(a, b),
    );
  }

  /** Schema findings under one heading ("request body (application/json)"), one change each. */
  schemaFindings(
    findings: readonly Finding[],
    direction: Direction,
    place: Place,
    location: readonly (string | number)[],
    heading: string,
  ): void {
    for (const f of findings) {
      const subject =
        f.at === ""
          ? heading
          : `${heading} ${shortened(f.at, MAX_MESSAGE_LENGTH - heading.length - f.detail.length - 3)}`;
      this.out.add(f.kind, direction, place, location, `${subject}: ${f.detail}`);
    }
  }

  /**
   * Media-type maps (request or response content): removed and added types, and the schemas of the ones
   * on both sides, media types with the same findings said once.
   */
  content(
    contentA: unknown,
    contentB: unknown,
    direction: Direction,
    place: Place,
    location: readonly (string | number)[],
    heading: string,
    removedKind: ChangeKind,
    addedKind: ChangeKind,
    verbs: { removed: string; added: string },
  ): void {
    const mediaA = mediaTypes(contentA);
    const mediaB = mediaTypes(contentB);
    const said = (kind: ChangeKind, verb: string, media: string) =>
      this.out.add(kind, direction, place, [...location, media], `${heading} ${verb} ${quote(media, 80)}`);
    const shared = new Map<readonly Finding[], string[]>();
    for (const [media, entryA] of mediaA) {
      const entryB = mediaB.get(media);
      if (entryB === undefined) {
        said(removedKind, verbs.removed, media);
        continue;
      }
      const findings = this.schemas.compare(entryA.schema, entryB.schema, direction);
      if (findings.length > 0) shared.set(findings, [...(shared.get(findings) ?? []), media]);
    }
    for (const media of mediaB.keys()) if (!mediaA.has(media)) said(addedKind, verbs.added, media);
    for (const [findings, media] of shared) {
      const first = media[0] as string;
      const names =
        media.length > 2
          ? `${quote(first, 60)} and ${media.length - 1} more`
          : media.map((m) => quote(m, 60)).join(", ");
      this.schemaFindings(
        findings,
        direction,
        place,
        [...location, first, "schema"],
        `${heading} (${names})`,
      );
    }
  }
}

/** A place inside a schema cut in its middle to `max` characters, so that a message still says what changed. */
function shortened(at: string, max: number): string {
  return max < 24 ? at : truncateMiddle(at, max);
}

/** A content map's entries by lower-cased media type. */
function mediaTypes(content: unknown): Map<string, Json> {
  const out = new Map<string, Json>();
  if (!isObject(content)) return out;
  for (const [media, entry] of Object.entries(content))
    out.set(media.toLowerCase(), isObject(entry) ? entry : {});
  return out;
}

export function compareApis(before: unknown, after: unknown): ApiChanges {
  const run = new Comparison(comparable(before, "base"), comparable(after, "head"));
  comparePaths(run);
  securityChanges(run.a, run.b, run.out, (path, method) => placeOf(run, path, method));
  if (jsonText(run.a.servers) !== jsonText(run.b.servers)) {
    const urls = (doc: Json) =>
      Array.isArray(doc.servers)
        ? doc.servers.map((server) => (isObject(server) ? String(server.url) : "?")).join(", ") || "none"
        : "none";
    run.out.add(
      "servers-changed",
      "request",
      {},
      ["servers"],
      `servers ${quote(urls(run.a), 120)} → ${quote(urls(run.b), 120)}`,
    );
  }
  return run.out.result();
}

function placeOf(run: Comparison, path: string, method: string): Place {
  const operation = (doc: Json) => {
    const paths = isObject(doc.paths) ? doc.paths : {};
    const item = paths[path];
    return isObject(item) && isObject(item[method]) ? item[method] : undefined;
  };
  const op = operation(run.b) ?? operation(run.a);
  const id = op !== undefined && typeof op.operationId === "string" ? op.operationId : undefined;
  return { path, method: method.toUpperCase(), ...(id === undefined ? {} : { operationId: id }) };
}

function comparePaths(run: Comparison): void {
  const pathsA = isObject(run.a.paths) ? run.a.paths : {};
  const pathsB = isObject(run.b.paths) ? run.b.paths : {};
  const matches = matchPaths(Object.keys(pathsA), Object.keys(pathsB));
  const matched = new Set(matches.values());
  for (const [pathA, rawA] of Object.entries(pathsA)) {
    const pathB = matches.get(pathA);
    if (pathB === undefined) {
      run.out.add("path-removed", "request", { path: pathA }, ["paths", pathA], "path removed");
      continue;
    }
    const itemA = run.before.object(rawA) ?? {};
    const itemB = run.after.object(pathsB[pathB]) ?? {};
    for (const method of METHODS) {
      const opA = itemA[method];
      const opB = itemB[method];
      if (!isObject(opA) && !isObject(opB)) continue;
      if (!isObject(opB)) operationSaid(run, "operation-removed", pathA, method);
      else if (!isObject(opA)) operationSaid(run, "operation-added", pathB, method);
      else {
        compareOperation(run, { pathA, pathB, method, itemA, itemB, opA, opB });
      }
    }
  }
  for (const [pathB, rawB] of Object.entries(pathsB)) {
    if (matched.has(pathB)) continue;
    const itemB = run.after.object(rawB) ?? {};
    for (const method of METHODS)
      if (isObject(itemB[method])) operationSaid(run, "operation-added", pathB, method);
  }
}

/** A whole operation removed or added. */
function operationSaid(
  run: Comparison,
  kind: "operation-removed" | "operation-added",
  path: string,
  method: string,
) {
  const text = kind === "operation-removed" ? "operation removed" : "operation added";
  run.out.add(kind, "request", placeOf(run, path, method), ["paths", path, method], text);
}

interface OperationPair {
  pathA: string;
  pathB: string;
  method: string;
  itemA: Json;
  itemB: Json;
  opA: Json;
  opB: Json;
}

function compareOperation(run: Comparison, pair: OperationPair): void {
  const { opA, opB } = pair;
  const place = placeOf(run, pair.pathB, pair.method);
  const at = ["paths", pair.pathB, pair.method];
  if (opA.operationId !== opB.operationId)
    run.out.add(
      "operation-id-changed",
      "request",
      place,
      [...at, "operationId"],
      `operationId ${quote(opA.operationId ?? "none", 60)} → ${quote(opB.operationId ?? "none", 60)}`,
    );
  if ((opA.deprecated === true) !== (opB.deprecated === true))
    run.out.add(
      "operation-deprecated",
      "request",
      place,
      [...at, "deprecated"],
      opB.deprecated === true ? "deprecated" : "no longer deprecated",
    );
  for (const key of ["summary", "description"] as const)
    if (jsonText(opA[key]) !== jsonText(opB[key]))
      run.out.add("description-changed", "request", place, [...at, key], `${key} changed`);
  compareParameters(run, pair, place, at);
  compareRequestBody(run, run.before.object(opA.requestBody), run.after.object(opB.requestBody), place, [
    ...at,
    "requestBody",
  ]);
  compareResponses(run, opA.responses, opB.responses, place, [...at, "responses"]);
}

interface Parameter {
  readonly label: string;
  readonly node: Json;
}

/** An operation's parameters with its path item's, by identity: path parameters by position, others by place and name. */
function parametersOf(resolver: Resolver, item: Json, op: Json, path: string): Map<string, Parameter> {
  const variables = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const out = new Map<string, Parameter>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = resolver.object(raw);
      if (p === undefined || typeof p.name !== "string" || typeof p.in !== "string") continue;
      const position = p.in === "path" ? variables.indexOf(p.name) : -1;
      const key =
        position >= 0 ? `path#${position}` : `${p.in}:${p.in === "header" ? p.name.toLowerCase() : p.name}`;
      out.set(key, { label: `${quote(p.in, 20)} parameter ${quote(p.name, 60)}`, node: p });
    }
  }
  return out;
}

function parameterSchema(p: Json): unknown {
  if (p.schema !== undefined) return p.schema;
  const first = isObject(p.content) ? Object.values(p.content)[0] : undefined;
  return isObject(first) ? first.schema : undefined;
}

function serialization(p: Json): string {
  const style =
    typeof p.style === "string" ? p.style : p.in === "query" || p.in === "cookie" ? "form" : "simple";
  const explode = typeof p.explode === "boolean" ? p.explode : style === "form";
  return `${style}${explode ? ", exploded" : ""}`;
}

function compareParameters(run: Comparison, pair: OperationPair, place: Place, at: readonly string[]): void {
  const before = parametersOf(run.before, pair.itemA, pair.opA, pair.pathA);
  const after = parametersOf(run.after, pair.itemB, pair.opB, pair.pathB);
  const location = [...at, "parameters"];
  for (const [key, a] of before) {
    const b = after.get(key);
    if (b === undefined) {
      run.out.add("parameter-removed", "request", place, location, `${a.label} removed`);
      continue;
    }
    const wasRequired = a.node.required === true;
    const isRequired = b.node.required === true;
    if (!wasRequired && isRequired)
      run.out.add("parameter-made-required", "request", place, location, `${b.label} now required`);
    if (wasRequired && !isRequired)
      run.out.add("parameter-made-optional", "request", place, location, `${b.label} no longer required`);
    const [styleA, styleB] = [serialization(a.node), serialization(b.node)];
    if (styleA !== styleB)
      run.out.add(
        "parameter-serialization-changed",
        "request",
        place,
        location,
        `${b.label}: serialized ${styleA} → ${styleB}`,
      );
    const findings = run.schemas.compare(parameterSchema(a.node), parameterSchema(b.node), "request");
    run.schemaFindings(findings, "request", place, location, b.label);
  }
  for (const [key, b] of after) {
    if (before.has(key)) continue;
    if (b.node.required === true)
      run.out.add("required-parameter-added", "request", place, location, `new required ${b.label}`);
    else run.out.add("parameter-added", "request", place, location, `new optional ${b.label}`);
  }
}

function compareRequestBody(
  run: Comparison,
  a: Json | undefined,
  b: Json | undefined,
  place: Place,
  location: readonly string[],
): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) {
    if (b?.required === true)
      run.out.add("required-request-body-added", "request", place, location, "new required request body");
    else run.out.add("request-body-added", "request", place, location, "new optional request body");
    return;
  }
  if (b === undefined) {
    run.out.add("request-body-removed", "request", place, location, "request body removed");
    return;
  }
  if (a.required !== true && b.required === true)
    run.out.add("request-body-made-required", "request", place, location, "request body now required");
  if (a.required === true && b.required !== true)
    run.out.add("request-body-made-optional", "request", place, location, "request body no longer required");
  run.content(
    a.content,
    b.content,
    "request",
    place,
    [...location, "content"],
    "request body",
    "request-media-type-removed",
    "request-media-type-added",
    {
      removed: "no longer accepts",
      added: "now accepts",
    },
  );
}

function compareResponses(
  run: Comparison,
  rawA: unknown,
  rawB: unknown,
  place: Place,
  location: readonly string[],
): void {
  // Status ranges are compared in upper case (`2xx` is `2XX`) and shown as written.
  const codes = (raw: unknown) =>
    new Map(
      isObject(raw)
        ? Object.entries(raw).map(([code, value]) => [code.toUpperCase(), { code, value }] as const)
        : [],
    );
  const before = codes(rawA);
  const after = codes(rawB);
  for (const [key, { code, value }] of before) {
    const heading = `response ${quote(code, 20)}`;
    const other = after.get(key);
    if (other === undefined) {
      const kind = /^[123]/.test(code) ? "response-removed" : "error-response-removed";
      run.out.add(kind, "response", place, [...location, code], `${heading} removed`);
      continue;
    }
    const a = run.before.object(value) ?? {};
    const b = run.after.object(other.value) ?? {};
    compareHeaders(run, a.headers, b.headers, place, [...location, other.code, "headers"], heading);
    run.content(
      a.content,
      b.content,
      "response",
      place,
      [...location, other.code, "content"],
      heading,
      "response-media-type-removed",
      "response-media-type-added",
      { removed: "no longer returns", added: "now returns" },
    );
  }
  for (const [key, { code }] of after)
    if (!before.has(key))
      run.out.add(
        "response-added",
        "response",
        place,
        [...location, code],
        `response ${quote(code, 20)} added`,
      );
}

function compareHeaders(
  run: Comparison,
  rawA: unknown,
  rawB: unknown,
  place: Place,
  location: readonly string[],
  heading: string,
): void {
  const headers = (raw: unknown, resolver: Resolver) =>
    new Map(
      isObject(raw)
        ? Object.entries(raw).map(
            ([name, value]) => [name.toLowerCase(), { name, node: resolver.object(value) ?? {} }] as const,
          )
        : [],
    );
  const before = headers(rawA, run.before);
  const after = headers(rawB, run.after);
  for (const [key, a] of before) {
    const label = `${heading} header ${quote(a.name, 60)}`;
    const b = after.get(key);
    if (b === undefined) {
      run.out.add("response-header-removed", "response", place, [...location, a.name], `${label} removed`);
      continue;
    }
    const findings = run.schemas.compare(parameterSchema(a.node), parameterSchema(b.node), "response");
    run.schemaFindings(findings, "response", place, [...location, b.name], label);
  }
  for (const [key, b] of after)
    if (!before.has(key))
      run.out.add(
        "response-header-added",
        "response",
        place,
        [...location, b.name],
        `${heading} header ${quote(b.name, 60)} added`,
      );
}
