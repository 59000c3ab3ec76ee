import type { Placement } from "./components.ts";
import type { SpecTypes, SpecVersion } from "./openapi-types.ts";
import { isRecord, pointerFromTokens } from "./pointer.ts";
import type { RefSite, SpecFile, SpecGraph, Target } from "./spec-files.ts";

/** A place in the bundle being written: its parent and its key there. */
interface Position {
  parent: Position | undefined;
  key: string;
}

/** A source object whose keys are copied into `out`; `ref`, when set, replaces its `$ref`. */
type Copy = [source: Record<string, unknown>, out: Record<string, unknown>, at: Position, ref?: string];

/**
 * Writes the bundle: the root as written, its references rewritten, and the new named components.
 *
 * - A reference to a node of the root stays (or becomes) `#/…` to it.
 * - A reference to a named component, or to a node inside one, becomes `#/components/<group>/<name>…`.
 * - A text file (Markdown, code samples, …) is written as a string in place of the reference.
 * - Anything else (a path item or operation in a file of its own, an extension's value) is written where
 *   it is first met, breadth-first, and every later reference points there; a reference with siblings
 *   gets a copy with its siblings over it. A referenced node that is met again inside another copied
 *   node (its file copied whole) is a reference to where it is written too.
 *
 * Siblings of a `$ref` that stays a reference are kept. Literal data is copied as it is.
 */
export function writeBundle(
  graph: SpecGraph,
  root: SpecFile,
  placement: Placement,
  types: SpecTypes,
  version: SpecVersion,
): unknown {
  const homes = new Map(placement.homes);
  const targets = new Map<object, Target>();
  for (const target of graph.targets.values()) {
    if (isRecord(target.node) && !targets.has(target.node)) targets.set(target.node, target);
  }
  const queue: Copy[] = [];

  const addressOf = (target: Target): string | undefined => {
    if (target.file === root) return pointerFromTokens(target.tokens);
    for (let length = target.tokens.length; length >= 0; length--) {
      const home = homes.get(length === target.tokens.length ? target.key : keyOf(target, length));
      if (home !== undefined) return home + pointerFromTokens(target.tokens.slice(length));
    }
    return undefined;
  };

  const refTo = (site: RefSite, target: Target): string | undefined => {
    if (site.file === root && target.file === root && site.ref.startsWith("#")) return site.ref;
    const address = addressOf(target);
    return address === undefined ? undefined : `#${encodeFragment(address)}`;
  };

  /**
   * A copy of a target that has no place yet, with the siblings of the reference over it (and the siblings
   * of each reference on the way when the target is itself a reference). The target's place stays free.
   */
  const mergedCopy = (value: Record<string, unknown>, target: Target, at: Position): unknown => {
    const layers = [withoutRef(value)];
    let node = target.node as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (let hops = 0; out === undefined; hops++) {
      const inner = graph.refs.get(node);
      const innerTarget = inner?.target;
      if (!inner || !innerTarget || hops > 100) {
        out = emptyLike(node);
        queue.push([node, out, at]);
      } else if (!isRecord(innerTarget.node)) {
        return innerTarget.node;
      } else {
        const ref = refTo(inner, innerTarget);
        if (ref !== undefined) {
          out = {};
          queue.push([node, out, at, ref]);
        } else {
          layers.unshift(withoutRef(node));
          node = innerTarget.node;
        }
      }
    }
    for (const layer of layers) queue.push([layer, out, at]);
    return out;
  };

  const emit = (value: unknown, at: Position): unknown => {
    if (!isRecord(value)) return value;
    const site = graph.refs.get(value);
    const target = site?.target;
    if (site && target) {
      if (!isRecord(target.node)) return target.node;
      if (site.optional) return mergedCopy(value, target, at);
      if (placement.inlined.has(site)) return emit(target.node, at);
      const ref = refTo(site, target);
      if (ref !== undefined) {
        const out: Record<string, unknown> = {};
        queue.push([value, out, at, ref]);
        return out;
      }
      if (Object.keys(value).length > 1) return mergedCopy(value, target, at);
      homes.set(target.key, pointerOf(at));
      return emit(target.node, at);
    }
    const mapping = graph.mappings.get(value);
    if (mapping) {
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) {
        const mapped = mapping.targets.get(key);
        const asWritten = mapping.file === root && typeof entry === "string" && entry.startsWith("#");
        const address = mapped && !asWritten ? addressOf(mapped) : undefined;
        setOwn(out, key, address === undefined ? entry : `#${encodeFragment(address)}`);
      }
      return out;
    }
    const met = targets.get(value);
    if (met && met.file !== root) {
      // A referenced node met where it is written in its file (inside a node being copied): written once.
      const address = addressOf(met);
      const here = pointerOf(at);
      if (address === undefined) homes.set(met.key, here);
      else if (address !== here) return { $ref: `#${encodeFragment(address)}` };
    }
    const out = emptyLike(value);
    queue.push([value, out, at]);
    return out;
  };

  const drain = () => {
    for (let index = 0; index < queue.length; index++) {
      const [source, out, at, ref] = queue[index] as Copy;
      for (const key of Object.keys(source)) {
        if (ref !== undefined && key === "$ref") setOwn(out, key, ref);
        else setOwn(out, key, emit(source[key], { parent: at, key }));
      }
    }
    queue.length = 0;
  };

  const top: Position = { parent: undefined, key: "" };
  const document = emit(root.value, top);
  drain();
  if (placement.added.size === 0) return document;

  if (!isRecord(document) || Array.isArray(document)) throw new Error("the root is not an object");
  let holder = document;
  let holderAt = top;
  if (version === "oas3") {
    holderAt = { parent: top, key: "components" };
    if (document.components === undefined) document.components = {};
    const components = document.components;
    if (!isRecord(components) || Array.isArray(components) || typeof components.$ref === "string") {
      throw new Error("the root's `components` is not an object written in the root");
    }
    holder = components;
  }
  for (const group of types.groups) {
    const entries = placement.added.get(group);
    if (!entries) continue;
    if (holder[group] === undefined) holder[group] = {};
    const groupObject = holder[group];
    if (!isRecord(groupObject) || Array.isArray(groupObject)) {
      throw new Error(`the root's \`${group}\` is not an object`);
    }
    const groupAt = { parent: holderAt, key: group };
    for (const [name, target] of entries)
      setOwn(groupObject, name, emit(target.node, { parent: groupAt, key: name }));
  }
  drain();
  return document;
}

function keyOf(target: Target, length: number): string {
  return `${target.file.path}#${pointerFromTokens(target.tokens.slice(0, length))}`;
}

function pointerOf(at: Position): string {
  const tokens: string[] = [];
  for (let position: Position | undefined = at; position?.parent; position = position.parent) {
    tokens.push(position.key);
  }
  return pointerFromTokens(tokens.reverse());
}

function emptyLike(value: object): Record<string, unknown> {
  return (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
}

function withoutRef(value: Record<string, unknown>): Record<string, unknown> {
  const { $ref: _ref, ...siblings } = value;
  return siblings;
}

/** Sets an own property, even one named `__proto__`. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** Percent-encodes what a URI fragment may not contain, keeping JSON-pointer characters readable. */
function encodeFragment(pointer: string): string {
  return encodeURI(pointer).replaceAll("#", "%23");
}
