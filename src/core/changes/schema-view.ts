/**
 * What a schema says, with its `$ref` followed, its `$ref` siblings applied, its `allOf` merged and the
 * keywords beside `oneOf`/`anyOf` applied to each variant: the normalised form the comparison reads,
 * memoised by identity. The model and its choices: docs/design/change-review.md.
 */
import { isObject, type Json, type Resolver } from "./document.ts";

export interface Limits {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly pattern?: string;
  readonly uniqueItems?: boolean;
}

export interface SchemaView {
  /** The JSON types a value may have; undefined for any. */
  readonly types: ReadonlySet<string> | undefined;
  /** Allowed values by their JSON text (`enum`, or `const`); undefined when not limited. */
  readonly values: ReadonlyMap<string, unknown> | undefined;
  readonly format: string | undefined;
  readonly properties: ReadonlyMap<string, unknown>;
  readonly required: ReadonlySet<string>;
  readonly items: unknown;
  /** false when refused; a schema, true or undefined when allowed. */
  readonly additionalProperties: unknown;
  /** `oneOf` or `anyOf` branches, as written. */
  readonly variants: readonly unknown[] | undefined;
  readonly discriminator:
    | { readonly property?: string; readonly mapping: ReadonlyMap<string, string> }
    | undefined;
  readonly limits: Limits;
  /** The default as JSON text, when there is one. */
  readonly defaultValue: string | undefined;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
}

const ANY: SchemaView = {
  types: undefined,
  values: undefined,
  format: undefined,
  properties: new Map(),
  required: new Set(),
  items: undefined,
  additionalProperties: undefined,
  variants: undefined,
  discriminator: undefined,
  limits: {},
  defaultValue: undefined,
  readOnly: false,
  writeOnly: false,
  deprecated: false,
};
const NOTHING: SchemaView = { ...ANY, types: new Set() };

/** Longest `$ref`/`allOf` chain followed; deeper is read as any value. */
const MAX_NESTING = 64;

const LIMIT_KEYS = [
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
] as const;
const LOWER = new Set(["minimum", "minLength", "minItems", "minProperties"]);
/** Keywords that say what instances a schema accepts (documentation, `nullable` and the like aside). */
const CONSTRAINT_KEYS: ReadonlySet<string> = new Set([
  ...LIMIT_KEYS,
  "type",
  "enum",
  "const",
  "format",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "pattern",
  "uniqueItems",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "allOf",
]);
/** Keys of a schema that only document it: never compared, and a `$ref` beside them is still a plain reference. */
export const DOCUMENTATION_KEYS: ReadonlySet<string> = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
]);

/** JSON text of a value, or undefined when it cannot be written (a cycle, a BigInt). */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function typeSet(schema: Json): Set<string> | undefined {
  const raw = schema.type;
  let types: string[] | undefined =
    typeof raw === "string"
      ? [raw]
      : Array.isArray(raw)
        ? raw.filter((t) => typeof t === "string")
        : undefined;
  if (types === undefined) {
    if (isObject(schema.properties) || schema.additionalProperties !== undefined) types = ["object"];
    else if (schema.items !== undefined) types = ["array"];
    else return undefined;
  }
  const set = new Set(types);
  if (set.has("number")) set.add("integer");
  if (schema.nullable === true || schema["x-nullable"] === true) set.add("null");
  return set;
}

function valuesOf(schema: Json): Map<string, unknown> | undefined {
  const list = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  if (list === undefined) return undefined;
  const values = new Map<string, unknown>();
  for (const value of list) {
    const text = jsonText(value);
    if (text !== undefined) values.set(text, value);
  }
  return values;
}

function limitsOf(schema: Json): Limits {
  const limits: Record<string, number | string | boolean> = {};
  for (const key of LIMIT_KEYS) if (typeof schema[key] === "number") limits[key] = schema[key];
  // 3.1 writes exclusive bounds as numbers; 3.0 as booleans beside minimum/maximum (read as inclusive).
  if (typeof schema.exclusiveMinimum === "number") limits.minimum = schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === "number") limits.maximum = schema.exclusiveMaximum;
  if (typeof schema.pattern === "string") limits.pattern = schema.pattern;
  if (schema.uniqueItems === true) limits.uniqueItems = true;
  return limits as Limits;
}

function discriminatorOf(schema: Json): SchemaView["discriminator"] {
  const raw = schema.discriminator;
  if (typeof raw === "string") return { property: raw, mapping: new Map() }; // Swagger 2.0
  if (!isObject(raw)) return undefined;
  const mapping = new Map<string, string>();
  if (isObject(raw.mapping))
    for (const [key, value] of Object.entries(raw.mapping))
      if (typeof value === "string") mapping.set(key, value);
  return { ...(typeof raw.propertyName === "string" ? { property: raw.propertyName } : {}), mapping };
}

/** The keywords of one schema object, its `$ref` and `allOf` aside. */
function ownView(schema: Json): SchemaView {
  const variants = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  return {
    types: typeSet(schema),
    values: valuesOf(schema),
    format: typeof schema.format === "string" ? schema.format : undefined,
    properties: new Map(isObject(schema.properties) ? Object.entries(schema.properties) : []),
    required: new Set(
      Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
    ),
    items: schema.items,
    additionalProperties: schema.additionalProperties,
    variants,
    discriminator: discriminatorOf(schema),
    limits: limitsOf(schema),
    defaultValue: "default" in schema ? jsonText(schema.default) : undefined,
    readOnly: schema.readOnly === true,
    writeOnly: schema.writeOnly === true,
    deprecated: schema.deprecated === true,
  };
}

function intersectTypes(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined) {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a].filter((t) => b.has(t)));
}

function narrowestLimits(a: Limits, b: Limits): Limits {
  const out: Record<string, number | string | boolean> = { ...a };
  for (const key of LIMIT_KEYS) {
    const x = a[key];
    const y = b[key];
    if (y === undefined) continue;
    out[key] = x === undefined ? y : LOWER.has(key) ? Math.max(x, y) : Math.min(x, y);
  }
  if (b.pattern !== undefined && a.pattern === undefined) out.pattern = b.pattern;
  if (b.uniqueItems) out.uniqueItems = true;
  return out as Limits;
}

/**
 * The schemas the comparison reads, for one document. Views of merged properties (`allOf` members that
 * both describe one property) are made once and kept, so their identity is stable for memoising.
 */
export class SchemaViews {
  private readonly views = new WeakMap<object, SchemaView>();
  private readonly reading = new WeakSet<object>();
  /** A variant with its container's keywords applied (`{allOf: [keywords, variant]}`) → the variant as written. */
  private readonly written = new WeakMap<object, unknown>();
  /** The views that stand for a whole oneOf/anyOf beside a plain schema, by container and variant chosen. */
  private readonly hulls = new WeakMap<object, Map<number, object>>();
  /** `anyOf`s made of one property's schemas in several variants: not variants the document wrote. */
  private readonly unions = new WeakSet<object>();

  private readonly resolver: Resolver;

  constructor(resolver: Resolver) {
    this.resolver = resolver;
  }

  of(schema: unknown, depth = 0): SchemaView {
    if (schema === false) return NOTHING;
    if (!isObject(schema)) return ANY;
    const known = this.views.get(schema);
    if (known !== undefined) return known;
    if (this.reading.has(schema) || depth > MAX_NESTING) return ANY; // a cycle through `$ref` or `allOf`
    this.reading.add(schema);
    const view = this.build(schema, depth);
    this.reading.delete(schema);
    this.views.set(schema, view);
    return view;
  }

  /**
   * The schema a plain reference names, or the schema itself: a `$ref`, or an `allOf` of one member,
   * beside documentation only (a description of this use of the schema changes nothing compared).
   */
  canonical(schema: unknown): unknown {
    for (let i = 0; i < MAX_NESTING && isObject(schema); i++) {
      const keys = Object.keys(schema).filter((k) => !DOCUMENTATION_KEYS.has(k));
      let next: unknown;
      if (typeof schema.$ref === "string" && keys.length === 1) next = this.resolver.target(schema.$ref);
      else if (keys.length === 1 && Array.isArray(schema.allOf) && schema.allOf.length === 1)
        next = schema.allOf[0];
      if (next === undefined) return schema;
      schema = next;
    }
    return schema;
  }

  /** The variant as the document wrote it (for its name): itself, unless its container's keywords were applied. */
  variantAsWritten(node: unknown): unknown {
    return isObject(node) ? (this.written.get(node) ?? node) : node;
  }

  /** Whether a oneOf/anyOf was made here from one property's schemas in several variants (see {@link hull}). */
  isUnion(node: unknown): boolean {
    return isObject(node) && this.unions.has(node);
  }

  /**
   * The oneOf/anyOf `container` (its variants {@link flattened}) read, beside a plain schema, as its
   * variant `index` where that is closest, but as the whole set where the set allows more: an enum's
   * values are the union over the variants (unlimited when one variant is), a property is there when
   * any variant has it (its schemas in several variants read as one of them); `required` stays the
   * chosen variant's, since which properties go together (a block's type with its fields) is what a
   * variant says, and the set's intersection would lose it.
   */
  hull(container: object, variants: readonly unknown[], index: number): object {
    let byIndex = this.hulls.get(container);
    if (byIndex === undefined) {
      byIndex = new Map();
      this.hulls.set(container, byIndex);
    }
    const known = byIndex.get(index);
    if (known !== undefined) return known;
    const chosen = variants[index];
    const view = this.of(chosen);
    // Only the variants of the chosen one's kind of value say what else the set allows (a `null`
    // variant beside an object one adds no property and takes none away).
    const views = variants
      .map((variant) => this.of(variant))
      .filter((v, i) => i === index || sameKind(v, view));
    let values: Map<string, unknown> | undefined = new Map();
    for (const v of views) {
      if (v.values === undefined) {
        values = undefined;
        break;
      }
      for (const [text, value] of v.values) values.set(text, value);
    }
    const schemasOf = new Map<string, unknown[]>();
    for (const v of views)
      for (const [name, schema] of v.properties) {
        const list = schemasOf.get(name) ?? [];
        if (!list.some((known) => this.canonical(known) === this.canonical(schema))) list.push(schema);
        schemasOf.set(name, list);
      }
    const properties = new Map<string, unknown>();
    for (const [name, list] of schemasOf) {
      if (list.length === 1) properties.set(name, list[0]);
      else {
        const union = { anyOf: list };
        this.unions.add(union);
        properties.set(name, union);
      }
    }
    // A node of its own, whose text is no schema's (so never taken for an unchanged one), read as this view.
    const node = { allOf: [chosen], anyOf: variants };
    this.views.set(node, { ...view, values, properties });
    byIndex.set(index, node);
    return node;
  }

  /** Variants with those that are oneOf/anyOf themselves (and nothing else) replaced by theirs. */
  flattened(variants: readonly unknown[]): unknown[] {
    const out: unknown[] = [];
    const stack = [...variants].reverse();
    for (let n = 0; stack.length > 0 && n < 1_000; n++) {
      const node = stack.pop();
      const view = this.of(node);
      if (view.variants !== undefined && view.types === undefined && view.properties.size === 0)
        stack.push(...[...view.variants].reverse());
      else out.push(node);
    }
    return out;
  }

  private build(schema: Json, depth: number): SchemaView {
    const written = ownView(schema);
    const own = this.distributed(schema, written);
    let view = own;
    if (typeof schema.$ref === "string") {
      const target = this.resolver.target(schema.$ref);
      view = applySiblings(this.of(target, depth + 1), own, schema);
    }
    // An `allOf` beside a oneOf/anyOf is among the keywords each variant was read with.
    if (Array.isArray(schema.allOf) && own === written) {
      for (const member of schema.allOf) view = this.intersect(view, this.of(member, depth + 1));
      if (schema.nullable === true && schema.type === undefined && view.types !== undefined)
        view = { ...view, types: new Set([...view.types, "null"]) };
    }
    return view;
  }

  /**
   * A oneOf/anyOf with constraining keywords beside it: its variants each read with those keywords
   * (`{allOf: [keywords, variant]}`, made once per container), the container as the variants alone.
   */
  private distributed(schema: Json, own: SchemaView): SchemaView {
    // Beside a `$ref` the target's keywords would apply too, and `nullable` says null beside the
    // variants (OpenAPI 3.0): both are read as before, the keywords on the container.
    if (own.variants === undefined || "$ref" in schema || schema.nullable === true) return own;
    const keywords: Json = {};
    for (const [key, value] of Object.entries(schema)) if (CONSTRAINT_KEYS.has(key)) keywords[key] = value;
    if (Object.keys(keywords).length === 0) return own;
    // A variant that is a oneOf/anyOf itself gives its own variants, each read with the keywords too.
    const variants = this.flattened(own.variants).map((variant) => {
      const applied = { allOf: [keywords, variant] };
      this.written.set(applied, variant);
      return applied;
    });
    return {
      ...ANY,
      variants,
      discriminator: own.discriminator,
      defaultValue: own.defaultValue,
      readOnly: own.readOnly,
      writeOnly: own.writeOnly,
      deprecated: own.deprecated,
    };
  }

  private intersect(a: SchemaView, b: SchemaView): SchemaView {
    const properties = new Map(a.properties);
    for (const [name, schema] of b.properties) {
      const mine = properties.get(name);
      properties.set(name, mine === undefined ? schema : { allOf: [mine, schema] });
    }
    return {
      types: intersectTypes(a.types, b.types),
      values: a.values ?? b.values,
      format: a.format ?? b.format,
      properties,
      required: new Set([...a.required, ...b.required]),
      items: a.items ?? b.items,
      additionalProperties:
        a.additionalProperties === false || b.additionalProperties === false
          ? false
          : (a.additionalProperties ?? b.additionalProperties),
      variants: a.variants ?? b.variants,
      discriminator: a.discriminator ?? b.discriminator,
      limits: narrowestLimits(a.limits, b.limits),
      defaultValue: a.defaultValue ?? b.defaultValue,
      readOnly: a.readOnly || b.readOnly,
      writeOnly: a.writeOnly || b.writeOnly,
      deprecated: a.deprecated || b.deprecated,
    };
  }
}

/** Whether two views may accept values of one JSON type other than null. */
function sameKind(a: SchemaView, b: SchemaView): boolean {
  if (a.types === undefined || b.types === undefined) return true;
  for (const type of a.types) if (type !== "null" && b.types.has(type)) return true;
  return false;
}

/** A `$ref`'s target with the keywords written beside the `$ref` applied over it. */
function applySiblings(target: SchemaView, own: SchemaView, schema: Json): SchemaView {
  const said = (key: string) => key in schema;
  let types = schema.type === undefined ? target.types : own.types;
  if ((schema.nullable === true || schema["x-nullable"] === true) && types !== undefined)
    types = new Set([...types, "null"]);
  const properties = new Map(target.properties);
  for (const [name, value] of own.properties) properties.set(name, value);
  return {
    types,
    values: own.values ?? target.values,
    format: own.format ?? target.format,
    properties,
    required: new Set([...target.required, ...own.required]),
    items: said("items") ? own.items : target.items,
    additionalProperties: said("additionalProperties")
      ? own.additionalProperties
      : target.additionalProperties,
    variants: own.variants ?? target.variants,
    discriminator: own.discriminator ?? target.discriminator,
    limits: { ...target.limits, ...own.limits },
    defaultValue: own.defaultValue ?? target.defaultValue,
    readOnly: said("readOnly") ? own.readOnly : target.readOnly,
    writeOnly: said("writeOnly") ? own.writeOnly : target.writeOnly,
    deprecated: said("deprecated") ? own.deprecated : target.deprecated,
  };
}
