/**
 * Which named schemas (`#/components/schemas/<name>`) are the same on both sides, as far as the
 * comparison reads them: their text without documentation (descriptions, summaries, titles, examples,
 * `x-` extensions) is equal, and so is every schema they refer to, transitively. A pair of references to
 * such a schema cannot differ, so the comparison skips it: comparing a spec with itself, or a release
 * that touched a handful of schemas, costs a walk of the text and not a comparison of every use.
 */
import { pointerTokens } from "../bundling/pointer.ts";
import { isObject, type Json } from "./document.ts";
import { DOCUMENTATION_KEYS } from "./schema-view.ts";

const SCHEMAS = "#/components/schemas/";
/** Keys that hold documentation only ({@link DOCUMENTATION_KEYS}); never read when they name properties. */
const DOCUMENTATION = DOCUMENTATION_KEYS;
/** Keys whose values are maps of names to schemas: their keys are names, not keywords. */
const NAME_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]);

/** The component a reference lands in (`#/components/schemas/Pet/properties/id` → `Pet`), or undefined. */
function componentOf(ref: string): string | undefined {
  if (!ref.startsWith(SCHEMAS)) return undefined;
  return pointerTokens(ref.slice(1))[2];
}

/** A schema's text without documentation, and the references it holds. */
function contract(node: unknown, refs: Set<string>): string {
  const parts: string[] = [];
  const stack: { value: unknown; names: boolean }[] = [{ value: node, names: false }];
  while (stack.length > 0) {
    const { value, names } = stack.pop() as { value: unknown; names: boolean };
    if (Array.isArray(value)) {
      parts.push("[", String(value.length));
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], names: false });
    } else if (isObject(value)) {
      const keys = Object.keys(value).filter((k) => names || !(DOCUMENTATION.has(k) || k.startsWith("x-")));
      parts.push("{", String(keys.length));
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const child = value[key];
        if (key === "$ref" && !names && typeof child === "string") refs.add(child);
        stack.push({ value: child, names: !names && NAME_MAPS.has(key) });
        stack.push({ value: key, names: false });
      }
    } else {
      parts.push(JSON.stringify(value) ?? "u");
    }
  }
  return parts.join("\u0000");
}

export class UnchangedSchemas {
  private readonly clean = new Set<string>();

  constructor(a: Json, b: Json) {
    const schemasOf = (doc: Json): Json => {
      const components = isObject(doc.components) ? doc.components : {};
      return isObject(components.schemas) ? components.schemas : {};
    };
    const before = schemasOf(a);
    const after = schemasOf(b);
    const usedBy = new Map<string, string[]>();
    const dirty: string[] = [];
    const seen = new Set<string>();
    const markDirty = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      dirty.push(name);
    };
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const refsA = new Set<string>();
      const refsB = new Set<string>();
      if (
        !(name in before) ||
        !(name in after) ||
        contract(before[name], refsA) !== contract(after[name], refsB)
      ) {
        markDirty(name);
        continue;
      }
      for (const ref of refsA) {
        const target = componentOf(ref);
        if (target === undefined)
          markDirty(name); // a reference outside the named schemas: not known to be equal
        else usedBy.set(target, [...(usedBy.get(target) ?? []), name]);
      }
      this.clean.add(name);
    }
    // A schema that refers to a changed one has changed too.
    for (let i = 0; i < dirty.length; i++)
      for (const user of usedBy.get(dirty[i] as string) ?? []) markDirty(user);
    for (const name of seen) this.clean.delete(name);
  }

  /** Whether two schema nodes cannot differ: the same text, every reference in it to an unchanged schema. */
  same(a: unknown, b: unknown): boolean {
    const refsA = new Set<string>();
    if (contract(a, refsA) !== contract(b, new Set())) return false;
    for (const ref of refsA) {
      const name = componentOf(ref);
      if (name === undefined || !this.clean.has(name)) return false;
    }
    return true;
  }
}
