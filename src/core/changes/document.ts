import { pointerTokens } from "../bundling/pointer.ts";
import { isSwagger2, swagger2ToOpenApi3 } from "./swagger2.ts";

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The document in the OpenAPI 3 shape the comparison reads; throws on anything else, naming the side. */
export function comparable(doc: unknown, side: "base" | "head"): Json {
  if (isSwagger2(doc)) return swagger2ToOpenApi3(doc as Json);
  if (isObject(doc) && typeof doc.openapi === "string" && doc.openapi.startsWith("3")) return doc;
  throw new TypeError(`The ${side} document is not an OpenAPI 3.x or Swagger 2.0 document.`);
}

/** Longest chain of references followed before giving up (a cycle of `$ref`s that point at each other). */
const MAX_REF_CHAIN = 32;

/**
 * Local `$ref`s of one bundled document (`#/…`), each pointer walked once. A reference that leads
 * nowhere, or out of the document, stays as it is: the comparison then sees an object with a `$ref`.
 */
export class Resolver {
  private readonly targets = new Map<string, unknown>();

  private readonly doc: Json;

  constructor(doc: Json) {
    this.doc = doc;
  }

  target(ref: string): unknown {
    if (this.targets.has(ref)) return this.targets.get(ref);
    let node: unknown;
    if (ref === "#" || ref.startsWith("#/")) {
      node = this.doc;
      for (const token of pointerTokens(ref.slice(1))) {
        node = isObject(node) ? node[token] : Array.isArray(node) ? node[Number(token)] : undefined;
        if (node === undefined) break;
      }
    }
    this.targets.set(ref, node);
    return node;
  }

  /**
   * A parameter, request body, response or header: the object its `$ref` chain ends at (siblings of a
   * `$ref` here are descriptions, which OpenAPI 3.1 lets override the target's).
   */
  object(node: unknown): Json | undefined {
    let current = node;
    for (let i = 0; i < MAX_REF_CHAIN && isObject(current) && typeof current.$ref === "string"; i++) {
      const next = this.target(current.$ref);
      if (next === undefined) return current;
      current = next;
    }
    return isObject(current) ? current : undefined;
  }
}
