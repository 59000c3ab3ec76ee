/**
 * `remove-internal`: takes out of a (bundled) OpenAPI 3.x or Swagger 2.0 document everything marked
 * `x-internal: true`, then whatever that leaves broken or pointless, so that the result is a valid
 * document (README "Overlays and audiences", docs/overlays.md):
 *
 * 1. every object marked `x-internal: true` (an operation, a path item, a parameter, a schema property,
 *    a response, a media type, a tag, a server, a component, …) leaves the mapping or list that holds it;
 *    a property also leaves its schema's `required`; an operation all of whose tags are internal goes too;
 * 2. a `$ref` (or a discriminator's `mapping` entry) to anything removed goes, with the object that holds
 *    it: a list item or a named entry (property, response, media type, component, …) leaves its
 *    container, and a fixed field (a parameter's `schema`, an `items`) takes its holder with it;
 * 3. a path item left without operations goes; so does a declared tag whose operations were all removed
 *    (a tag that had none to begin with, such as a parent tag GitBook nests others under, stays), and
 *    removed tags leave the operations' `tags`, `x-tagGroups` and other tags' `x-parent`;
 * 4. components the document used before and no longer reaches are removed; components it never used
 *    stay, as do security schemes (named, not referenced) unless marked.
 *
 * The document is changed in place.
 */
import { isRecord, pointerFromTokens, pointerTokens } from "../bundling/pointer.ts";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const INTERNAL = "x-internal";

/**
 * Containers whose keys are names chosen by the author: an entry may leave without breaking its holder.
 * Anything else (`schema`, `items`, `requestBody`, …) is a fixed field, whose loss breaks its holder.
 */
const NAMED_MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "paths",
  "webhooks",
  "responses",
  "content",
  "headers",
  "examples",
  "links",
  "callbacks",
  "schemas",
  "parameters",
  "requestBodies",
  "securitySchemes",
  "securityDefinitions",
  "pathItems",
  "encoding",
  "variables",
  "mapping",
]);

export interface RemovalSummary {
  /** Objects marked `x-internal: true` that were removed (nested ones not counted). */
  marked: number;
  /** Operations removed, marked or not. */
  operations: number;
  /** Components no longer reached, removed. */
  components: number;
  /** Declared tags removed. */
  tags: number;
}

type Path = Array<string | number>;

export function removeInternal(document: unknown): RemovalSummary {
  const summary: RemovalSummary = { marked: 0, operations: 0, components: 0, tags: 0 };
  if (!isRecord(document)) return summary;
  const swagger2 = typeof document.swagger === "string" || typeof document.swagger === "number";
  const reachableBefore = reachableComponents(document, swagger2);
  const operationsBefore = operationCount(document);
  const taggedBefore = operationsByTag(document);
  const hadOperations = pathItemsWithOperations(document);
  const removed = new Set<string>();

  // 1. What is marked, and the tags' own marks.
  const internalTags = new Set<string>();
  if (Array.isArray(document.tags)) {
    for (const tag of document.tags)
      if (isRecord(tag) && tag[INTERNAL] === true && typeof tag.name === "string") internalTags.add(tag.name);
  }
  const marked: Path[] = [];
  walk(document, [], (value, path) => {
    if (path.length < 2) return true; // the root and its own fields (`info`, `paths`, …) stay
    if (value[INTERNAL] === true || allTagsInternal(value, path, internalTags)) {
      if (value[INTERNAL] === true) summary.marked++;
      marked.push(path);
      return false;
    }
    return true;
  });
  removeAll(document, marked, removed);

  // 2 and 3, until nothing more goes: references to removed places, emptied path items.
  for (let round = 0; round < 100; round++) {
    const before = removed.size;
    removeAll(document, brokenReferences(document, removed), removed);
    removeAll(document, emptiedPathItems(document, hadOperations), removed);
    if (removed.size === before) break;
  }
  dropSecurityRequirements(document, removed, swagger2);
  summary.operations = operationsBefore - operationCount(document);

  // Tags: the marked ones, and those that lost every operation.
  const taggedAfter = operationsByTag(document);
  const goneTags = new Set(internalTags);
  for (const [name, count] of taggedBefore) if (count > 0 && !taggedAfter.has(name)) goneTags.add(name);
  summary.tags = dropTags(document, goneTags);

  // 4. Components no longer reached.
  summary.components = dropUnreached(document, swagger2, reachableBefore);
  return summary;
}

/** Every local `$ref` of the document that does not resolve, as written. */
export function danglingRefs(document: unknown): string[] {
  const dangling: string[] = [];
  walk(document, [], (value) => {
    const ref = value.$ref;
    if (typeof ref === "string" && ref.startsWith("#") && resolvePointer(document, ref) === undefined)
      dangling.push(ref);
    return true;
  });
  return dangling;
}

/**
 * Visits every object (not array) of `value` depth-first with its path; `visit` returns false to skip
 * what is below an object. Arrays are walked through.
 */
function walk(
  value: unknown,
  path: Path,
  visit: (value: Record<string, unknown>, path: Path) => boolean,
): void {
  const stack: Array<[unknown, Path]> = [[value, path]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, Path];
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...at, i]]);
    } else if (isRecord(node)) {
      if (!visit(node, at)) continue;
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (!isLiteralData(key, node[key], at)) stack.push([node[key], [...at, key]]);
      }
    }
  }
}

const LITERAL_KEYS = new Set(["example", "default", "enum", "const"]);

/**
 * Values that are data, not OpenAPI: examples, defaults, enums, constants and extensions' values. An
 * `x-internal` or `$ref` written inside them is data too, never acted on. A key of a named map (a schema
 * property called `default`) is a name, not one of these.
 */
function isLiteralData(key: string, value: unknown, holderPath: Path): boolean {
  if (key.startsWith("x-")) return true;
  const holderKey = holderPath[holderPath.length - 1];
  if (typeof holderKey === "string" && NAMED_MAPS.has(holderKey)) return false;
  if (LITERAL_KEYS.has(key)) return true;
  if (key === "examples" && Array.isArray(value)) return true; // JSON Schema's list of examples
  return key === "value" && holderPath[holderPath.length - 2] === "examples";
}

/** An operation whose tags are all internal tags. */
function allTagsInternal(
  value: Record<string, unknown>,
  path: Path,
  internalTags: ReadonlySet<string>,
): boolean {
  if (internalTags.size === 0 || !isOperationPath(path)) return false;
  const tags = value.tags;
  return (
    Array.isArray(tags) &&
    tags.length > 0 &&
    tags.every((tag) => typeof tag === "string" && internalTags.has(tag))
  );
}

/** `paths./x.get`, `webhooks.name.post`, or an operation of a callback's path item. */
function isOperationPath(path: Path): boolean {
  const method = path[path.length - 1];
  if (typeof method !== "string" || !METHODS.has(method) || path.length < 3) return false;
  return isPathItemPath(path.slice(0, -1));
}

function isPathItemPath(path: Path): boolean {
  const holder = path[path.length - 2];
  if (path.length === 2) return holder === "paths" || holder === "webhooks";
  if (holder === "pathItems" && path[path.length - 3] === "components") return true;
  return path.length >= 3 && path[path.length - 3] === "callbacks";
}

/**
 * Removes every node of `paths`, later list items first, so that the indexes of the others stay right.
 */
function removeAll(document: Record<string, unknown>, paths: Path[], removed: Set<string>): void {
  const sorted = [...paths].sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const [x, y] = [a[i], b[i]];
      if (x === y) continue;
      if (typeof x === "number" && typeof y === "number") return y - x;
      return String(x) < String(y) ? 1 : -1;
    }
    return b.length - a.length;
  });
  for (const path of sorted) removeAt(document, path, removed);
}

/**
 * Removes the node at `path` from its container, recording its pointer (and the pointers of what it
 * takes along). A node in a fixed field takes its holder along instead.
 */
function removeAt(document: Record<string, unknown>, path: Path, removed: Set<string>): void {
  let at = path;
  for (;;) {
    if (at.length === 0) return;
    const container = valueAt(document, at.slice(0, -1));
    const key = at[at.length - 1] as string | number;
    const containerKey = at[at.length - 2];
    const removable =
      Array.isArray(container) ||
      at.length <= 2 ||
      (typeof containerKey === "string" && NAMED_MAPS.has(containerKey)) ||
      isPathItemPath(at.slice(0, -1)) ||
      (at.length >= 3 && at[at.length - 3] === "callbacks");
    if (!removable) {
      at = at.slice(0, -1);
      continue;
    }
    if (Array.isArray(container) && typeof key === "number") {
      if (key >= container.length) return;
      container.splice(key, 1);
    } else if (isRecord(container) && typeof key === "string" && Object.hasOwn(container, key)) {
      delete container[key];
      if (containerKey === "properties") {
        const schema = valueAt(document, at.slice(0, -2));
        if (isRecord(schema) && Array.isArray(schema.required)) {
          schema.required = schema.required.filter((name) => name !== key);
          if ((schema.required as unknown[]).length === 0) delete schema.required;
        }
      }
    } else return;
    removed.add(pointerFromTokens(at.map(String)));
    return;
  }
}

/** Paths of the objects holding a `$ref` (or a discriminator mapping entry) into a removed place. */
function brokenReferences(document: unknown, removed: ReadonlySet<string>): Path[] {
  if (removed.size === 0) return [];
  const broken: Path[] = [];
  const isRemoved = (ref: string) => {
    if (!ref.startsWith("#")) return false;
    let tokens: string[];
    try {
      tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
    } catch {
      return false;
    }
    for (let length = 1; length <= tokens.length; length++)
      if (removed.has(pointerFromTokens(tokens.slice(0, length)))) return true;
    return false;
  };
  walk(document, [], (value, path) => {
    if (typeof value.$ref === "string" && isRemoved(value.$ref)) {
      broken.push(path);
      return false;
    }
    if (path[path.length - 1] === "discriminator" && isRecord(value.mapping)) {
      for (const [name, target] of Object.entries(value.mapping))
        if (typeof target === "string" && isRemoved(target)) broken.push([...path, "mapping", name]);
    }
    return true;
  });
  return broken;
}

/** The path items (under `paths` and `webhooks`) that have an operation. */
function pathItemsWithOperations(document: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  for (const root of ["paths", "webhooks"]) {
    const items = document[root];
    if (!isRecord(items)) continue;
    for (const [name, item] of Object.entries(items))
      if (isRecord(item) && Object.keys(item).some((key) => METHODS.has(key)))
        found.add(pointerFromTokens([root, name]));
  }
  return found;
}

/** Path items that had an operation and have none left. */
function emptiedPathItems(document: Record<string, unknown>, hadOperations: ReadonlySet<string>): Path[] {
  const emptied: Path[] = [];
  for (const root of ["paths", "webhooks"]) {
    const items = document[root];
    if (!isRecord(items)) continue;
    for (const [name, item] of Object.entries(items)) {
      if (!isRecord(item) || !hadOperations.has(pointerFromTokens([root, name]))) continue;
      if (!Object.keys(item).some((key) => METHODS.has(key))) emptied.push([root, name]);
    }
  }
  return emptied;
}

/**
 * Security requirements naming a removed scheme go; a `security` list left empty goes too (an empty
 * list would say "no authentication", which the document never said).
 */
function dropSecurityRequirements(
  document: Record<string, unknown>,
  removed: ReadonlySet<string>,
  swagger2: boolean,
): void {
  const prefix = swagger2 ? "/securityDefinitions/" : "/components/securitySchemes/";
  const gone = new Set<string>();
  for (const pointer of removed) {
    if (!pointer.startsWith(prefix)) continue;
    const tokens = pointerTokens(pointer);
    if (tokens.length === (swagger2 ? 2 : 3)) gone.add(tokens[tokens.length - 1] as string);
  }
  if (gone.size === 0) return;
  const filter = (holder: Record<string, unknown>) => {
    if (!Array.isArray(holder.security)) return;
    holder.security = holder.security.filter(
      (requirement) => !(isRecord(requirement) && Object.keys(requirement).some((name) => gone.has(name))),
    );
    if ((holder.security as unknown[]).length === 0) delete holder.security;
  };
  filter(document);
  forEachOperation(document, filter);
}

function operationCount(document: Record<string, unknown>): number {
  let count = 0;
  forEachOperation(document, () => {
    count++;
  });
  return count;
}

/** Operations by tag name (untagged operations not counted). */
function operationsByTag(document: Record<string, unknown>): Map<string, number> {
  const byTag = new Map<string, number>();
  forEachOperation(document, (operation) => {
    if (!Array.isArray(operation.tags)) return;
    for (const tag of operation.tags) if (typeof tag === "string") byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
  });
  return byTag;
}

function forEachOperation(
  document: Record<string, unknown>,
  visit: (operation: Record<string, unknown>) => void,
): void {
  for (const root of ["paths", "webhooks"]) {
    const items = document[root];
    if (!isRecord(items)) continue;
    for (const item of Object.values(items)) {
      if (!isRecord(item)) continue;
      for (const [key, operation] of Object.entries(item))
        if (METHODS.has(key) && isRecord(operation)) visit(operation);
    }
  }
}

/** Removes the named tags from the declared tags, the operations' `tags`, `x-tagGroups` and `x-parent`. */
function dropTags(document: Record<string, unknown>, gone: ReadonlySet<string>): number {
  if (gone.size === 0) return 0;
  let dropped = 0;
  if (Array.isArray(document.tags)) {
    const kept = document.tags.filter(
      (tag) => !(isRecord(tag) && typeof tag.name === "string" && gone.has(tag.name)),
    );
    dropped = document.tags.length - kept.length;
    document.tags = kept;
    for (const tag of kept) {
      if (!isRecord(tag)) continue;
      for (const key of ["x-parent", "parent"])
        if (typeof tag[key] === "string" && gone.has(tag[key] as string)) delete tag[key];
    }
  }
  forEachOperation(document, (operation) => {
    if (!Array.isArray(operation.tags)) return;
    operation.tags = operation.tags.filter((tag) => !(typeof tag === "string" && gone.has(tag)));
    if ((operation.tags as unknown[]).length === 0) delete operation.tags;
  });
  const groups = document["x-tagGroups"];
  if (Array.isArray(groups)) {
    for (const group of groups)
      if (isRecord(group) && Array.isArray(group.tags))
        group.tags = group.tags.filter((tag) => !(typeof tag === "string" && gone.has(tag)));
    document["x-tagGroups"] = groups.filter(
      (group) => !isRecord(group) || !Array.isArray(group.tags) || group.tags.length > 0,
    );
  }
  return dropped;
}

/** The component containers of a document: `components.<group>`, or Swagger 2.0's root maps. */
function componentGroups(
  document: Record<string, unknown>,
  swagger2: boolean,
): Array<[Path, Record<string, unknown>]> {
  const groups: Array<[Path, Record<string, unknown>]> = [];
  if (swagger2) {
    for (const key of ["definitions", "parameters", "responses"])
      if (isRecord(document[key])) groups.push([[key], document[key] as Record<string, unknown>]);
  } else if (isRecord(document.components)) {
    for (const [group, members] of Object.entries(document.components))
      if (group !== "securitySchemes" && isRecord(members)) groups.push([["components", group], members]);
  }
  return groups;
}

/** The pointer of the component a local reference lands in, if it lands in one. */
function componentOf(ref: string, swagger2: boolean): string | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let tokens: string[];
  try {
    tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  const depth = swagger2 ? 2 : 3;
  if (tokens.length < depth) return undefined;
  if (!swagger2 && tokens[0] !== "components") return undefined;
  if (swagger2 && !["definitions", "parameters", "responses"].includes(tokens[0] as string)) return undefined;
  return pointerFromTokens(tokens.slice(0, depth));
}

/**
 * The components reached from everything that is not a component, following references (and
 * discriminator mappings) through components; `extraRoots` are walked as well.
 */
function reachableComponents(
  document: Record<string, unknown>,
  swagger2: boolean,
  extraRoots: readonly string[] = [],
): Set<string> {
  const reached = new Set<string>();
  const queue: unknown[] = [];
  const note = (ref: string) => {
    const component = componentOf(ref, swagger2);
    if (component === undefined || reached.has(component)) return;
    reached.add(component);
    queue.push(resolvePointer(document, `#${component}`));
  };
  const scan = (value: unknown) =>
    walk(value, [], (node, path) => {
      if (typeof node.$ref === "string") note(node.$ref);
      if (path[path.length - 1] === "discriminator" && isRecord(node.mapping))
        for (const target of Object.values(node.mapping)) if (typeof target === "string") note(target);
      return true;
    });
  const componentRoots = new Set(swagger2 ? ["definitions", "parameters", "responses"] : ["components"]);
  for (const [key, value] of Object.entries(document)) {
    if (componentRoots.has(key)) continue;
    scan(value);
  }
  if (!swagger2 && isRecord(document.components) && isRecord(document.components.securitySchemes))
    scan(document.components.securitySchemes);
  for (const root of extraRoots) {
    reached.add(root);
    queue.push(resolvePointer(document, `#${root}`));
  }
  while (queue.length > 0) scan(queue.pop());
  return reached;
}

/** Removes the components reached before and not now (nor from a component never reached): their count. */
function dropUnreached(
  document: Record<string, unknown>,
  swagger2: boolean,
  before: ReadonlySet<string>,
): number {
  const all: string[] = [];
  for (const [path, members] of componentGroups(document, swagger2))
    for (const name of Object.keys(members)) all.push(pointerFromTokens([...path.map(String), name]));
  const neverReached = all.filter((pointer) => !before.has(pointer));
  const reached = reachableComponents(document, swagger2, neverReached);
  let dropped = 0;
  for (const [path, members] of componentGroups(document, swagger2)) {
    let droppedHere = 0;
    for (const name of Object.keys(members)) {
      if (reached.has(pointerFromTokens([...path.map(String), name]))) continue;
      delete members[name];
      droppedHere++;
    }
    dropped += droppedHere;
    if (Object.keys(members).length === 0 && droppedHere > 0) {
      const holder = valueAt(document, path.slice(0, -1)) as Record<string, unknown>;
      delete holder[path[path.length - 1] as string];
    }
  }
  if (!swagger2 && isRecord(document.components) && Object.keys(document.components).length === 0)
    delete document.components;
  return dropped;
}

function resolvePointer(document: unknown, ref: string): unknown {
  let tokens: string[];
  try {
    tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  return valueAt(document, tokens);
}

function valueAt(document: unknown, path: readonly (string | number)[]): unknown {
  let node = document;
  for (const key of path) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, String(key))) node = node[String(key)];
    else return undefined;
  }
  return node;
}
