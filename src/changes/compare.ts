import { apiCompare } from "api-smart-diff";
import { isSwagger2, swagger2ToOpenApi3 } from "./swagger2.ts";
import { oneLine, pointer, quote } from "./text.ts";
import type { ApiChange, ApiChanges } from "./types.ts";

type Json = Record<string, unknown>;
type Key = string | number;
type Verdict = "breaking" | "other";

/** What `api-smart-diff` 1.x reports for one difference. */
interface LibraryDiff {
  action: string;
  path: Key[];
  before?: unknown;
  after?: unknown;
  type: string;
  description?: string;
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const DOC_KEYS = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "tags"]);

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The document in the OpenAPI 3 shape the library classifies; throws on anything else. */
function comparable(doc: unknown, side: string): Json {
  if (isSwagger2(doc)) return swagger2ToOpenApi3(doc as Json);
  if (isObject(doc) && typeof doc.openapi === "string" && doc.openapi.startsWith("3")) return doc;
  throw new TypeError(`The ${side} document is not an OpenAPI 3.x or Swagger 2.0 document.`);
}

/** The node at a path, following local `$ref`s on the way (the library's paths run through them). */
function at(doc: Json, path: readonly Key[]): unknown {
  const resolve = (node: unknown): unknown => {
    let current = node;
    for (let i = 0; i < 20 && isObject(current) && typeof current.$ref === "string"; i++) {
      const ref = current.$ref;
      if (!ref.startsWith("#/")) return current;
      let target: unknown = doc;
      for (const raw of ref.slice(2).split("/")) {
        const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
        target = isObject(target) || Array.isArray(target) ? (target as Json)[key] : undefined;
      }
      current = target;
    }
    return current;
  };
  let node = resolve(doc);
  for (const key of path) {
    node = isObject(node) || Array.isArray(node) ? resolve((node as Json)[key as string]) : undefined;
  }
  return node;
}

/** Path keys compared without parameter names: `/pets/{id}` and `/pets/{petId}` are one path. */
const pathKey = (p: string) => p.replace(/\{[^}]*\}/g, "{}");

/** The accepted values of a schema's `type`, `number` including `integer`. */
function typeSet(schema: unknown): Set<string> | undefined {
  if (!isObject(schema)) return undefined;
  const raw = schema.type;
  const types = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw.map(String) : undefined;
  if (types === undefined) return undefined;
  const set = new Set(types);
  if (schema.nullable === true) set.add("null");
  if (set.has("number")) set.add("integer");
  return set;
}
const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));
const typeText = (schema: unknown) => (isObject(schema) ? quote(schema.type, 40) : "none");

class Collector {
  readonly breaking: ApiChange[] = [];
  readonly other: ApiChange[] = [];
  private readonly seen = new Set<string>();

  add(verdict: Verdict, change: ApiChange): void {
    const key = `${verdict}\u0000${change.kind}\u0000${change.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    (verdict === "breaking" ? this.breaking : this.other).push(change);
  }
}

interface Place {
  path?: string;
  method?: string;
  operationId?: string;
  /** `GET /pets`, or the document. */
  label: string;
}

/**
 * Compares two OpenAPI documents (3.0, 3.1 or Swagger 2.0, each already bundled into one document) and
 * sorts every change into breaking and other. `api-smart-diff` finds and first classifies the changes;
 * the rules of `docs/change-review.md` then decide the ones it leaves out or reads otherwise.
 */
export function compareApis(before: unknown, after: unknown): ApiChanges {
  const a = comparable(before, "base");
  const b = comparable(after, "head");
  // The library rewrites the documents it is given (resolved references, merged `allOf`): give it copies.
  const { diffs } = apiCompare(structuredClone(a), structuredClone(b)) as { diffs: LibraryDiff[] };
  const out = new Collector();

  const pathsA = isObject(a.paths) ? a.paths : {};
  const pathsB = isObject(b.paths) ? b.paths : {};
  const keysB = new Set(Object.keys(pathsB).map(pathKey));
  const removedPaths = new Set(Object.keys(pathsA).filter((p) => !keysB.has(pathKey(p))));
  for (const p of removedPaths) {
    out.add("breaking", {
      kind: "path-removed",
      path: p,
      location: pointer(["paths", p]),
      message: oneLine(`${quote(p)}: path removed`),
    });
  }

  const place = (apiPath: string, method: string | undefined): Place => {
    if (method === undefined) return { path: apiPath, label: quote(apiPath) };
    const op = at(a, ["paths", apiPath, method]) ?? at(b, ["paths", apiPath, method]);
    const id = isObject(op) && typeof op.operationId === "string" ? op.operationId : undefined;
    const upper = method.toUpperCase();
    return {
      path: apiPath,
      method: upper,
      ...(id === undefined ? {} : { operationId: id }),
      label: `${upper} ${quote(apiPath)}`,
    };
  };

  for (const d of diffs) {
    const [root, apiPath, second] = d.path;
    if (root !== "paths") {
      if (root === "components" || root === "security") continue; // used components show under paths
      if (root === "openapi" || root === "swagger") continue;
      const last = d.path[d.path.length - 1];
      const doc = DOC_KEYS.has(String(last)) || d.type === "annotation";
      out.add(doc ? "other" : verdictOf(d), {
        kind: doc ? "description-changed" : "document-changed",
        location: pointer(d.path),
        message: oneLine(
          `${quote(d.path.join("."), 80)}: ${d.action === "replace" ? "changed" : `${d.action}d`}`,
        ),
      });
      continue;
    }
    if (typeof apiPath !== "string" || removedPaths.has(apiPath)) continue;
    const method = typeof second === "string" && METHODS.has(second) ? second : undefined;
    if (d.path.length === 2) continue; // a whole path added: its operations are reported one by one
    const where = place(apiPath, method);
    const rest = d.path.slice(method === undefined ? 2 : 3);
    classify(d, where, rest, { a, b }, out);
  }

  securityChanges(a, b, removedPaths, place, out);
  return { breaking: out.breaking, other: out.other };
}

function verdictOf(d: LibraryDiff): Verdict {
  return d.type === "breaking" ? "breaking" : "other";
}

function emit(out: Collector, verdict: Verdict, kind: string, where: Place, d: LibraryDiff, text: string) {
  const { label, ...ids } = where;
  out.add(verdict, { ...ids, kind, location: pointer(d.path), message: oneLine(`${label}: ${text}`) });
}

function classify(
  d: LibraryDiff,
  where: Place,
  rest: Key[],
  docs: { a: Json; b: Json },
  out: Collector,
): void {
  const [first, second, third] = rest;
  const last = rest[rest.length - 1];
  if (rest.length === 0) {
    if (d.action === "remove") emit(out, "breaking", "operation-removed", where, d, "operation removed");
    else if (d.action === "add") emit(out, "other", "operation-added", where, d, "operation added");
    return;
  }
  if (first === "security") return; // securityChanges compares the effective requirements
  if (first === "deprecated") {
    emit(
      out,
      "other",
      "operation-deprecated",
      where,
      d,
      d.after === true ? "deprecated" : "no longer deprecated",
    );
    return;
  }
  if (first === "parameters" && rest.length === 1) {
    // The whole list added or removed: one change per parameter.
    const list = d.action === "remove" ? d.before : d.after;
    if (!Array.isArray(list)) {
      generic(d, where, "parameters", out);
      return;
    }
    list.forEach((p, i) => {
      const one = {
        ...d,
        path: [...d.path, i],
        before: d.action === "remove" ? p : undefined,
        after: d.action === "remove" ? undefined : p,
      };
      classify(one, where, [...rest, i], docs, out);
    });
    return;
  }
  if (first === "parameters") {
    // The parameter itself: the value added or removed, else the one in the document it is in now.
    const paramPath = d.path.slice(0, d.path.length - rest.length + 2);
    const param = rest.length === 2 ? (d.action === "remove" ? d.before : d.after) : undefined;
    const named = isObject(param) ? param : (at(docs.b, paramPath) ?? at(docs.a, paramPath));
    const name = isObject(named)
      ? `${quote(named.in, 20)} parameter ${quote(named.name, 60)}`
      : "a parameter";
    if (rest.length === 2) {
      if (d.action === "add") {
        if (isObject(param) && param.required === true)
          emit(out, "breaking", "required-parameter-added", where, d, `new required ${name}`);
        else emit(out, "other", "parameter-added", where, d, `new optional ${name}`);
      } else if (d.action === "remove")
        emit(out, verdictOf(d), "parameter-removed", where, d, `${name} removed`);
      else emit(out, verdictOf(d), "parameter-changed", where, d, `${name} changed`);
      return;
    }
    if (third === "required" && rest.length === 3) {
      if (d.after === true)
        emit(out, "breaking", "parameter-made-required", where, d, `${name} is now required`);
      else emit(out, "other", "parameter-made-optional", where, d, `${name} is now optional`);
      return;
    }
    if (third === "schema") {
      schemaChange(d, where, rest.slice(3), "request", name, docs, out);
      return;
    }
    generic(d, where, name, out);
    return;
  }
  if (first === "requestBody") {
    if (rest.length === 1) {
      const required = isObject(d.after) && d.after.required === true;
      if (d.action === "add")
        emit(
          out,
          required ? "breaking" : "other",
          "request-body-added",
          where,
          d,
          `new ${required ? "required " : ""}request body`,
        );
      else emit(out, verdictOf(d), "request-body-removed", where, d, "request body removed");
      return;
    }
    if (second === "required" && rest.length === 2) {
      if (d.after === true)
        emit(out, "breaking", "request-body-made-required", where, d, "request body is now required");
      else emit(out, "other", "request-body-made-optional", where, d, "request body is now optional");
      return;
    }
    if (second === "content") {
      const media = quote(third, 80);
      if (rest.length === 3) {
        if (d.action === "remove")
          emit(
            out,
            "breaking",
            "request-media-type-removed",
            where,
            d,
            `request body no longer accepts ${media}`,
          );
        else if (d.action === "add")
          emit(out, "other", "request-media-type-added", where, d, `request body accepts ${media}`);
        return;
      }
      if (rest[3] === "schema") {
        schemaChange(d, where, rest.slice(4), "request", "request body", docs, out);
        return;
      }
    }
    generic(d, where, "request body", out);
    return;
  }
  if (first === "responses") {
    const status = quote(second, 20);
    if (rest.length === 2) {
      if (d.action === "remove")
        emit(out, "breaking", "response-removed", where, d, `response ${status} removed`);
      else if (d.action === "add") emit(out, "other", "response-added", where, d, `response ${status} added`);
      else generic(d, where, `response ${status}`, out);
      return;
    }
    if (third === "content") {
      const media = quote(rest[3], 80);
      if (rest.length === 4) {
        if (d.action === "remove")
          emit(
            out,
            "breaking",
            "response-media-type-removed",
            where,
            d,
            `response ${status} no longer returns ${media}`,
          );
        else if (d.action === "add")
          emit(out, "other", "response-media-type-added", where, d, `response ${status} returns ${media}`);
        return;
      }
      if (rest[4] === "schema") {
        schemaChange(d, where, rest.slice(5), "response", `response ${status}`, docs, out);
        return;
      }
    }
    generic(d, where, `response ${status}`, out);
    return;
  }
  if (DOC_KEYS.has(String(last))) {
    emit(out, "other", "description-changed", where, d, `${quote(rest.join("."), 80)} changed`);
    return;
  }
  generic(d, where, quote(rest.join("."), 80), out);
}

function generic(d: LibraryDiff, where: Place, what: string, out: Collector): void {
  const last = d.path[d.path.length - 1];
  if (DOC_KEYS.has(String(last)) || d.type === "annotation") {
    emit(out, "other", "description-changed", where, d, `${what}: documentation changed`);
    return;
  }
  const verb = d.action === "replace" ? "changed" : `${d.action}d`;
  emit(out, verdictOf(d), "changed", where, d, `${what}: ${quote(d.path.slice(-2).join("."), 60)} ${verb}`);
}

/** `[].status`, `owner.name`: the property a schema path leads to. */
function propertyName(sub: readonly Key[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sub.length; i++) {
    if (sub[i] === "properties" && i + 1 < sub.length) parts.push(quote(sub[++i], 60));
    else if (sub[i] === "items") parts.push("[]");
  }
  return parts.join(".").replaceAll(".[]", "[]");
}

function schemaChange(
  d: LibraryDiff,
  where: Place,
  sub: Key[],
  side: "request" | "response",
  what: string,
  docs: { a: Json; b: Json },
  out: Collector,
): void {
  const last = sub[sub.length - 1];
  const prev = sub[sub.length - 2];
  const base = d.path.slice(0, d.path.length - sub.length);
  const inside = (n: number) => {
    const prop = propertyName(sub.slice(0, sub.length - n));
    return prop === "" ? what : `${prop} in ${what}`;
  };
  if (DOC_KEYS.has(String(last)) || prev === "examples" || d.type === "annotation") {
    emit(out, "other", "description-changed", where, d, `${inside(1)}: documentation changed`);
    return;
  }
  if (last === "type" || prev === "type" || last === "nullable") {
    const schemaPath = [
      ...base,
      ...sub.slice(0, sub.lastIndexOf(last === "type" || last === "nullable" ? last : "type")),
    ];
    const ta = typeSet(at(docs.a, schemaPath));
    const tb = typeSet(at(docs.b, schemaPath));
    if (ta === undefined || tb === undefined) {
      generic(d, where, inside(1), out);
      return;
    }
    const widened = subset(ta, tb);
    const narrowed = subset(tb, ta);
    if (widened && narrowed) return;
    const from = typeText(at(docs.a, schemaPath));
    const to = typeText(at(docs.b, schemaPath));
    const n = last === "type" || last === "nullable" ? 1 : 2;
    const text = `${inside(n)}: type ${from} → ${to}`;
    if (!widened && !narrowed) emit(out, "breaking", "type-changed", where, d, text);
    else if (narrowed) emit(out, side === "request" ? "breaking" : "other", "type-narrowed", where, d, text);
    else emit(out, side === "response" ? "breaking" : "other", "type-widened", where, d, text);
    return;
  }
  if (last === "enum" && (d.action === "add" || d.action === "remove")) {
    if (d.action === "add")
      emit(
        out,
        side === "request" ? "breaking" : "other",
        "enum-added",
        where,
        d,
        `${inside(1)}: now limited to ${quote(d.after, 80)}`,
      );
    else
      emit(
        out,
        side === "response" ? "breaking" : "other",
        "enum-removed",
        where,
        d,
        `${inside(1)}: no longer limited to listed values`,
      );
    return;
  }
  if (prev === "enum") {
    const schema = at(docs.a, [...base, ...sub.slice(0, -2)]);
    if (d.action === "add" && isObject(schema) && schema.enum === undefined) {
      const now = at(docs.b, [...base, ...sub.slice(0, -1)]);
      const verdict = side === "request" ? "breaking" : "other";
      emit(out, verdict, "enum-added", where, d, `${inside(2)}: now limited to ${quote(now, 80)}`);
      return;
    }
    if (d.action === "remove")
      emit(
        out,
        side === "request" ? "breaking" : "other",
        "enum-value-removed",
        where,
        d,
        `${inside(2)}: value ${quote(d.before, 60)} removed`,
      );
    else if (d.action === "add")
      emit(
        out,
        side === "response" ? verdictOf(d) : "other",
        "enum-value-added",
        where,
        d,
        `${inside(2)}: value ${quote(d.after, 60)} added`,
      );
    else
      emit(
        out,
        "breaking",
        "enum-value-changed",
        where,
        d,
        `${inside(2)}: value ${quote(d.before, 60)} → ${quote(d.after, 60)}`,
      );
    return;
  }
  if (last === "required" || prev === "required") {
    const names = (v: unknown) =>
      (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => quote(x, 60));
    const n = last === "required" ? 1 : 2;
    const owner = propertyName(sub.slice(0, sub.length - n));
    const prop = (name: string) => (owner === "" ? name : `${owner}.${name}`);
    if (d.action === "add" || d.action === "replace") {
      for (const name of names(d.after)) {
        if (side === "request")
          emit(
            out,
            "breaking",
            "required-property-added",
            where,
            d,
            `${what} property ${prop(name)} is now required`,
          );
        else
          emit(
            out,
            "other",
            "response-property-made-required",
            where,
            d,
            `${what} property ${prop(name)} is now always present`,
          );
      }
    }
    if (d.action === "remove") {
      for (const name of names(d.before)) {
        if (side === "response")
          emit(
            out,
            "breaking",
            "response-property-made-optional",
            where,
            d,
            `${what} property ${prop(name)} may be missing`,
          );
        else
          emit(
            out,
            "other",
            "property-made-optional",
            where,
            d,
            `${what} property ${prop(name)} is now optional`,
          );
      }
    }
    return;
  }
  if (prev === "properties") {
    const name = propertyName(sub);
    if (d.action === "add") {
      if (side === "request") {
        const parent = at(docs.b, [...base, ...sub.slice(0, -2)]);
        const required = isObject(parent) && Array.isArray(parent.required) && parent.required.includes(last);
        if (!required) emit(out, "other", "property-added", where, d, `${what} property ${name} added`);
      } else emit(out, "other", "response-property-added", where, d, `${what} property ${name} added`);
    } else if (d.action === "remove") {
      if (side === "response")
        emit(out, "breaking", "response-property-removed", where, d, `${what} property ${name} removed`);
      else emit(out, verdictOf(d), "property-removed", where, d, `${what} property ${name} removed`);
    } else generic(d, where, `${what} property ${name}`, out);
    return;
  }
  generic(d, where, inside(0), out);
}

/** The alternatives of a security requirement list: each a sorted `scheme[scope,…]` conjunction. */
function alternatives(requirements: unknown): Set<string> {
  if (!Array.isArray(requirements) || requirements.length === 0) return new Set([""]);
  return new Set(
    requirements.map((r) =>
      isObject(r)
        ? Object.entries(r)
            .map(([k, v]) => `${k}[${(Array.isArray(v) ? v.map(String) : []).sort().join(",")}]`)
            .sort()
            .join("+")
        : "",
    ),
  );
}

function securityVerdict(before: unknown, after: unknown): { kind: string; verdict: Verdict } | undefined {
  const x = alternatives(before);
  const y = alternatives(after);
  if (x.size === y.size && subset(x, y)) return undefined;
  if (subset(x, y)) return { kind: "security-relaxed", verdict: "other" };
  return { kind: x.has("") ? "security-added" : "security-changed", verdict: "breaking" };
}

const describeSecurity = (v: unknown) => {
  const alts = [...alternatives(v)].map((s) => (s === "" ? "none" : s));
  return quote(alts.join(" or "), 120);
};

function securityChanges(
  a: Json,
  b: Json,
  removedPaths: Set<string>,
  place: (p: string, m: string | undefined) => Place,
  out: Collector,
): void {
  const global = securityVerdict(a.security, b.security);
  if (global !== undefined) {
    out.add(global.verdict, {
      kind: global.kind,
      location: pointer(["security"]),
      message: oneLine(
        `every operation without its own security: ${describeSecurity(a.security)} → ${describeSecurity(b.security)}`,
      ),
    });
  }
  const pathsA = isObject(a.paths) ? a.paths : {};
  const pathsB = isObject(b.paths) ? b.paths : {};
  const byKey = new Map(Object.keys(pathsB).map((p) => [pathKey(p), p]));
  for (const [p, itemA] of Object.entries(pathsA)) {
    if (removedPaths.has(p)) continue;
    const itemB = pathsB[byKey.get(pathKey(p)) ?? ""];
    if (!isObject(itemA) || !isObject(itemB)) continue;
    for (const m of METHODS) {
      const opA = itemA[m];
      const opB = itemB[m];
      if (!isObject(opA) || !isObject(opB)) continue;
      if (opA.security === undefined && opB.security === undefined) continue;
      const change = securityVerdict(opA.security ?? a.security, opB.security ?? b.security);
      if (change === undefined) continue;
      const { label, ...ids } = place(p, m);
      out.add(change.verdict, {
        ...ids,
        kind: change.kind,
        location: pointer(["paths", p, m, "security"]),
        message: oneLine(
          `${label}: security ${describeSecurity(opA.security ?? a.security)} → ${describeSecurity(opB.security ?? b.security)}`,
        ),
      });
    }
  }
}
