/**
 * Compares two schemas in one direction (what a client sends, or what it receives). Each pair of schema
 * objects is compared once per direction and its findings kept: a component used by five hundred
 * operations costs one comparison, and the whole review grows with the size of the documents and of the
 * change, not with how often a schema is reused. A pair met again while it is being compared (a cycle)
 * adds nothing.
 */
import { isObject } from "./document.ts";
import { type ChangeKind, type Direction, verdictOf } from "./rules.ts";
import type { Limits, SchemaView, SchemaViews } from "./schema-view.ts";
import { quote } from "./text.ts";
import type { UnchangedSchemas } from "./unchanged-schemas.ts";

/** One difference inside a schema: where (`owner.name`, `items[]`, empty for the schema itself), what. */
export interface Finding {
  readonly kind: ChangeKind;
  readonly at: string;
  readonly detail: string;
}

const NONE: readonly Finding[] = [];

/** Nesting compared at most; deeper differences are said once as not compared. */
const MAX_DEPTH = 48;

const LOWER_BOUNDS = ["minimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "maxLength", "maxItems", "maxProperties"] as const;

function typeText(types: ReadonlySet<string> | undefined): string {
  if (types === undefined) return "any";
  const shown = [...types].filter((t) => !(t === "integer" && types.has("number")));
  return shown.length === 0 ? "nothing" : shown.sort().join(" | ");
}

const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((x) => b.has(x));

function listed(values: readonly string[], max = 5): string {
  const shown = values.slice(0, max).map((v) => quote(v, 40));
  return values.length > max ? `${shown.join(", ")} and ${values.length - max} more` : shown.join(", ");
}

function join(prefix: string, at: string): string {
  if (at === "") return prefix;
  if (prefix === "") return at;
  return at.startsWith("[") ? `${prefix}${at}` : `${prefix}.${at}`;
}

/** A pair of schemas reached from another pair, at a place inside it. */
interface Link {
  readonly at: string;
  readonly a: unknown;
  readonly b: unknown;
}

/** What comparing one pair finds inside it, and the referenced pairs it reaches (compared on their own). */
interface PairResult {
  readonly local: readonly Finding[];
  readonly links: readonly Link[];
}

const EMPTY: PairResult = { local: NONE, links: [] };

/**
 * A schema reached through a `$ref` (or an `allOf` that holds one) is compared as its own pair, once,
 * and its findings reach each operation once, at the shortest place it is used: never once per way of
 * reaching it, which grows exponentially in documents whose components refer to each other.
 */
function isReference(node: unknown): boolean {
  return (
    isObject(node) &&
    (typeof node.$ref === "string" ||
      (Array.isArray(node.allOf) && node.allOf.some((m) => isObject(m) && typeof m.$ref === "string")))
  );
}

export class SchemaComparer {
  private readonly pairs = new Map<string, PairResult>();
  private readonly flattened = new Map<string, readonly Finding[]>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private readonly before: SchemaViews;
  private readonly after: SchemaViews;
  private readonly unchanged: UnchangedSchemas;

  constructor(before: SchemaViews, after: SchemaViews, unchanged: UnchangedSchemas) {
    this.before = before;
    this.after = after;
    this.unchanged = unchanged;
  }

  /** Every difference between two schemas in one direction, each changed referenced schema once. */
  compare(a: unknown, b: unknown, direction: Direction): readonly Finding[] {
    const rootKey = this.key(a, b, direction);
    const known = this.flattened.get(rootKey);
    if (known !== undefined) return known;
    if (this.unchanged.same(a, b)) {
      this.flattened.set(rootKey, NONE);
      return NONE;
    }
    const out: Finding[] = [];
    const visited = new Set<string>([rootKey]);
    const queue: Link[] = [{ at: "", a, b }];
    for (let i = 0; i < queue.length; i++) {
      const link = queue[i] as Link;
      const result = this.pair(link.a, link.b, direction, 0);
      for (const f of result.local) out.push(link.at === "" ? f : { ...f, at: join(link.at, f.at) });
      for (const next of result.links) {
        const key = this.key(next.a, next.b, direction);
        if (visited.has(key)) continue;
        visited.add(key);
        queue.push(link.at === "" ? next : { ...next, at: join(link.at, next.at) });
      }
    }
    const result = out.length === 0 ? NONE : out;
    this.flattened.set(rootKey, result);
    return result;
  }

  /** Two references to one schema are one pair: keyed by what a plain `$ref` points at. */
  private key(a: unknown, b: unknown, direction: Direction): string {
    return `${this.id(this.before.canonical(a))}:${this.id(this.after.canonical(b))}:${direction}`;
  }

  private id(node: unknown): string {
    if (!isObject(node)) return `v${String(node)}`;
    let id = this.ids.get(node);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(node, id);
    }
    return String(id);
  }

  /** One pair, memoised; inline schemas inside it merged in, referenced ones left as links. */
  private pair(a: unknown, b: unknown, direction: Direction, depth: number): PairResult {
    const key = this.key(a, b, direction);
    const known = this.pairs.get(key);
    if (known !== undefined) return known;
    this.pairs.set(key, EMPTY); // a cycle back to this pair adds nothing
    const local: Finding[] = [];
    const links: Link[] = [];
    if (depth > MAX_DEPTH) {
      local.push({
        kind: "not-compared",
        at: "",
        detail: `nested more than ${MAX_DEPTH} levels deep, not compared further`,
      });
    } else {
      const nested = (prefix: string, childA: unknown, childB: unknown) => {
        if (isReference(childA) || isReference(childB)) {
          if (!this.unchanged.same(childA, childB)) links.push({ at: prefix, a: childA, b: childB });
          return;
        }
        const inner = this.pair(childA, childB, direction, depth + 1);
        for (const f of inner.local) local.push({ ...f, at: join(prefix, f.at) });
        for (const l of inner.links) links.push({ ...l, at: join(prefix, l.at) });
      };
      const viewA = this.before.of(a);
      const viewB = this.after.of(b);
      const closest = this.closestVariant(a, viewA, b, viewB, direction);
      if (closest === undefined) local.push(...this.compareViews(viewA, viewB, direction, nested));
      else {
        // A schema that became a oneOf/anyOf (or stopped being one) is compared with its closest
        // variant: the composite has no type or properties of its own to compare with.
        if (closest.said) local.push(closest.said);
        nested("", closest.a, closest.b);
      }
    }
    const result = local.length === 0 && links.length === 0 ? EMPTY : { local, links };
    this.pairs.set(key, result);
    return result;
  }

  /**
   * When one side is a plain schema and the other a oneOf/anyOf with nothing of its own beside its
   * variants: the variant to compare the plain side with (the one whose differences break nothing, and
   * are fewest), and the change to say.
   */
  private closestVariant(
    a: unknown,
    viewA: SchemaView,
    b: unknown,
    viewB: SchemaView,
    direction: Direction,
  ): { a: unknown; b: unknown; said: Finding | undefined } | undefined {
    const composite = (view: SchemaView) =>
      view.variants !== undefined && view.types === undefined && view.properties.size === 0;
    const score = (x: unknown, y: unknown) => {
      const found = this.compare(x, y, direction);
      return (found.some((f) => verdictOf(f.kind, direction) === "breaking") ? 1_000_000 : 0) + found.length;
    };
    const pick = (candidates: readonly unknown[], against: (candidate: unknown) => number) =>
      candidates.reduce<{ index: number; score: number } | undefined>((best, node, index) => {
        const s = against(node);
        return best === undefined || s < best.score ? { index, score: s } : best;
      }, undefined)?.index ?? 0;
    // The chosen variant, where the whole set allows more (another variant's enum value or
    // property) read as the set: what a variant set still allows is not said removed.
    const whole = (views: SchemaViews, container: unknown, variants: readonly unknown[], index: number) => {
      const node = views.canonical(container);
      return isObject(node) ? views.hull(node, variants, index) : variants[index];
    };
    if (viewA.variants === undefined && composite(viewB)) {
      const written = viewB.variants as readonly unknown[];
      const variants = this.after.flattened(written);
      const chosen = whole(
        this.after,
        b,
        variants,
        pick(variants, (candidate) => score(a, candidate)),
      );
      const said: Finding | undefined = this.after.isUnion(b)
        ? undefined
        : { kind: "variant-added", at: "", detail: `now one of ${written.length} variants` };
      return { a, b: chosen, said };
    }
    if (viewB.variants === undefined && composite(viewA)) {
      const written = viewA.variants as readonly unknown[];
      const variants = this.before.flattened(written);
      const chosen = whole(
        this.before,
        a,
        variants,
        pick(variants, (candidate) => score(candidate, b)),
      );
      const said: Finding | undefined = this.before.isUnion(a)
        ? undefined
        : { kind: "variant-removed", at: "", detail: `no longer one of ${written.length} variants` };
      return { a: chosen, b, said };
    }
    return undefined;
  }

  private compareViews(
    a: SchemaView,
    b: SchemaView,
    direction: Direction,
    nested: (prefix: string, childA: unknown, childB: unknown) => void,
  ): Finding[] {
    const out: Finding[] = [];
    const add = (kind: ChangeKind, detail: string, at = "") => out.push({ kind, at, detail });

    // Types.
    if (a.types !== undefined || b.types !== undefined) {
      const change = `type ${typeText(a.types)} → ${typeText(b.types)}`;
      if (a.types === undefined) add("type-narrowed", change);
      else if (b.types === undefined) add("type-widened", change);
      else {
        const widened = subset(a.types, b.types);
        const narrowed = subset(b.types, a.types);
        if (!(widened && narrowed))
          add(widened ? "type-widened" : narrowed ? "type-narrowed" : "type-changed", change);
      }
    }

    // Allowed values.
    if (a.values !== undefined && b.values !== undefined) {
      const removed = [...a.values.keys()].filter((v) => !b.values?.has(v));
      const added = [...b.values.keys()].filter((v) => !a.values?.has(v));
      if (removed.length > 0)
        add("enum-value-removed", `enum value${removed.length > 1 ? "s" : ""} ${listed(removed)} removed`);
      if (added.length > 0)
        add("enum-value-added", `enum value${added.length > 1 ? "s" : ""} ${listed(added)} added`);
    } else if (a.values === undefined && b.values !== undefined) {
      add("enum-added", `now limited to ${listed([...b.values.keys()])}`);
    } else if (a.values !== undefined && b.values === undefined) {
      add("enum-removed", "no longer limited to listed values");
    }

    // Format.
    if (a.format !== b.format) {
      if (a.format === undefined) add("format-added", `format ${quote(b.format, 40)} added`);
      else if (b.format === undefined) add("format-removed", `format ${quote(a.format, 40)} removed`);
      else add("format-changed", `format ${quote(a.format, 40)} → ${quote(b.format, 40)}`);
    }

    this.compareLimits(a.limits, b.limits, add);

    if (a.defaultValue !== b.defaultValue)
      add(
        "default-changed",
        `default ${quote(a.defaultValue ?? "none", 40)} → ${quote(b.defaultValue ?? "none", 40)}`,
      );
    if (!a.deprecated && b.deprecated) add("property-deprecated", "deprecated");

    // Properties: what a client sends has no read-only property, what it receives no write-only one.
    const hidden = (view: SchemaView) => (direction === "request" ? view.readOnly : view.writeOnly);
    const hiddenWord = direction === "request" ? "read-only" : "write-only";
    for (const [name, schemaA] of a.properties) {
      const viewA = this.before.of(schemaA);
      if (hidden(viewA)) continue;
      const schemaB = b.properties.get(name);
      const label = quote(name, 60);
      if (schemaB === undefined) {
        add("property-removed", "property removed", label);
        continue;
      }
      if (hidden(this.after.of(schemaB))) {
        add("property-removed", `property now ${hiddenWord}`, label);
        continue;
      }
      const wasRequired = a.required.has(name);
      const isRequired = b.required.has(name);
      if (!wasRequired && isRequired) add("property-made-required", "property now required", label);
      if (wasRequired && !isRequired) add("property-made-optional", "property no longer required", label);
      nested(label, schemaA, schemaB);
    }
    for (const [name, schemaB] of b.properties) {
      if (hidden(this.after.of(schemaB))) continue;
      const schemaA = a.properties.get(name);
      if (schemaA !== undefined && !hidden(this.before.of(schemaA))) continue;
      const label = quote(name, 60);
      if (b.required.has(name)) add("required-property-added", "required property added", label);
      else add("property-added", "property added", label);
    }

    // Additional properties.
    const refusedA = a.additionalProperties === false;
    const refusedB = b.additionalProperties === false;
    if (!refusedA && refusedB)
      add("additional-properties-refused", "additional properties no longer allowed");
    else if (refusedA && !refusedB) add("additional-properties-allowed", "additional properties now allowed");
    else if (isObject(a.additionalProperties) && isObject(b.additionalProperties))
      nested("*", a.additionalProperties, b.additionalProperties);

    if (a.items !== undefined && b.items !== undefined) nested("[]", a.items, b.items);

    this.compareVariants(a, b, direction, add, nested);
    return out;
  }

  private compareLimits(a: Limits, b: Limits, add: (kind: ChangeKind, detail: string) => void): void {
    // A higher lower bound, or a lower upper bound, accepts fewer values.
    for (const [keys, narrower] of [
      [LOWER_BOUNDS, (x: number, y: number) => y > x],
      [UPPER_BOUNDS, (x: number, y: number) => y < x],
    ] as const) {
      for (const key of keys) {
        const x = a[key];
        const y = b[key];
        if (x === y) continue;
        const narrowed = y !== undefined && (x === undefined || narrower(x, y));
        add(
          narrowed ? "constraint-narrowed" : "constraint-widened",
          `${key} ${x ?? "none"} → ${y ?? "none"}`,
        );
      }
    }
    if (a.pattern !== b.pattern) {
      const detail = `pattern ${quote(a.pattern ?? "none", 60)} → ${quote(b.pattern ?? "none", 60)}`;
      add(b.pattern === undefined ? "constraint-widened" : "constraint-narrowed", detail);
    }
    if (!a.uniqueItems && b.uniqueItems) add("constraint-narrowed", "items must now be unique");
    else if (a.uniqueItems && !b.uniqueItems) add("constraint-widened", "items no longer need be unique");
  }

  /** `oneOf`/`anyOf` branches matched by `$ref`, then by title, then unnamed ones in order; and the discriminator. */
  private compareVariants(
    a: SchemaView,
    b: SchemaView,
    direction: Direction,
    add: (kind: ChangeKind, detail: string, at?: string) => void,
    nested: (prefix: string, childA: unknown, childB: unknown) => void,
  ): void {
    const da = a.discriminator;
    const db = b.discriminator;
    if (da?.property !== undefined && db?.property !== undefined && da.property !== db.property)
      add("discriminator-changed", `discriminator ${quote(da.property, 40)} → ${quote(db.property, 40)}`);
    if (da !== undefined && db !== undefined) {
      const removed = [...da.mapping.keys()].filter((k) => !db.mapping.has(k));
      const added = [...db.mapping.keys()].filter((k) => !da.mapping.has(k));
      if (removed.length > 0)
        add(
          "variant-removed",
          `discriminator value${removed.length > 1 ? "s" : ""} ${listed(removed)} removed`,
        );
      if (added.length > 0)
        add("variant-added", `discriminator value${added.length > 1 ? "s" : ""} ${listed(added)} added`);
    }
    if (a.variants === undefined && b.variants === undefined) return;
    if (a.variants === undefined || b.variants === undefined) {
      if (b.variants !== undefined) add("variant-added", `now one of ${b.variants.length} variants`);
      else add("variant-removed", `no longer one of ${a.variants?.length} variants`);
      return;
    }
    // A variant read with its container's keywords keeps the name it was written with.
    const name = (applied: unknown): string | undefined => {
      const node = this.before.variantAsWritten(this.after.variantAsWritten(applied));
      return isObject(node) && typeof node.$ref === "string"
        ? `ref:${node.$ref}`
        : isObject(node) && typeof node.title === "string"
          ? `title:${node.title}`
          : undefined;
    };
    const label = (node: unknown, index: number) => {
      const n = name(node);
      return n === undefined
        ? `#${index + 1}`
        : quote(n.slice(n.indexOf(":") + 1).replace(/^#\/components\/schemas\//, ""), 60);
    };
    // A variant that is a oneOf/anyOf itself stands for its variants (a union of unions is one union).
    const variantsA = this.before.flattened(a.variants);
    const variantsB = this.after.flattened(b.variants);
    const namedB = new Map<string, number>();
    variantsB.forEach((node, index) => {
      const n = name(node);
      if (n !== undefined && !namedB.has(n)) namedB.set(n, index);
    });
    const usedB = new Set<number>();
    let leftA: number[] = [];
    variantsA.forEach((node, index) => {
      const n = name(node);
      const other = n === undefined ? undefined : namedB.get(n);
      if (other === undefined) leftA.push(index);
      else {
        usedB.add(other);
        nested(`(${label(node, index)})`, node, variantsB[other]);
      }
    });
    const leftB = () => variantsB.map((_node, index) => index).filter((i) => !usedB.has(i));
    const findings = (ia: number, ib: number) => this.compare(variantsA[ia], variantsB[ib], direction);
    const breaks = (list: readonly Finding[]) =>
      list.some((f) => verdictOf(f.kind, direction) === "breaking");
    // The same schema under another name or in another place (a renamed component, a reordered list).
    leftA = leftA.filter((ia) => {
      const same = leftB().find((ib) => findings(ia, ib).length === 0);
      if (same !== undefined) usedB.add(same);
      return same === undefined;
    });
    // A variant the head still takes in without breaking anything: the closest one left, else one
    // already matched (two variants merged into a wider one).
    leftA = leftA.filter((ia) => {
      const closest = (candidates: number[]) =>
        candidates
          .filter((ib) => !breaks(findings(ia, ib)))
          .sort((x, y) => findings(ia, x).length - findings(ia, y).length)[0];
      const wider = closest(leftB()) ?? closest([...usedB]);
      if (wider === undefined) return true;
      usedB.add(wider);
      nested(`(${label(variantsA[ia], ia)})`, variantsA[ia], variantsB[wider]);
      return false;
    });
    // The rest, one for one in order; what is left over was removed or added.
    const restB = leftB();
    leftA.forEach((ia, k) => {
      const ib = restB[k];
      if (ib === undefined) add("variant-removed", `variant ${label(variantsA[ia], ia)} removed`);
      else {
        usedB.add(ib);
        nested(`(${label(variantsA[ia], ia)})`, variantsA[ia], variantsB[ib]);
      }
    });
    for (const ib of leftB()) add("variant-added", `variant ${label(variantsB[ib], ib)} added`);
  }
}
