import { basename, extname } from "node:path";
import type { SpecTypes, SpecVersion } from "./openapi-types.ts";
import { isRecord, pointerFromTokens } from "./pointer.ts";
import type { RefSite, SpecFile, SpecGraph, Target } from "./spec-files.ts";

/** Where the referenced nodes of other files go in the bundle, decided before anything is written. */
export interface Placement {
  /** Target key → JSON pointer of its place in the bundle. */
  homes: Map<string, string>;
  /** The new named entries, by group, each group sorted by name. */
  added: Map<string, [name: string, target: Target][]>;
  /** The root's own component entries that are only a `$ref` to a node of another file: the node is
   * written there, under the root's name. */
  inlined: Set<RefSite>;
}

/**
 * Names the referenced nodes of other files that go into `components` (`definitions`, `parameters`,
 * `responses` in Swagger 2.0): each node referenced from a position of a component type (Schema,
 * Parameter, Response, Example, RequestBody, Header, SecurityScheme, Link, Callback) that is an object and
 * does not lie inside another such node.
 *
 * - A root entry that is only a `$ref` (`Pet: {$ref: ./schemas/pet.yaml}`) keeps the root's name: the node
 *   is written there.
 * - Otherwise the name is the file's name without its extension (`schemas/Pet.yaml` → `Pet`), or the last
 *   token of the pointer when the reference names a node inside a file (`common.yaml#/Error` → `Error`),
 *   with characters outside `A-Za-z0-9._-` replaced by `_`.
 * - The root's own names are never taken. On a clash, nodes are named in order of file path then pointer,
 *   and a later one gets the first free name of `freeName`'s list (`v2-Pet`, then `Pet-2`).
 */
export function placeComponents(
  graph: SpecGraph,
  root: SpecFile,
  types: SpecTypes,
  version: SpecVersion,
): Placement {
  const homes = new Map<string, string>();
  const inlined = new Set<RefSite>();
  const added = new Map<string, [string, Target][]>();
  if (version === "unknown") return { homes, added, inlined };

  const groupPointer = (group: string, name: string) =>
    pointerFromTokens(version === "oas3" ? ["components", group, name] : [group, name]);
  const taken = new Map<string, Set<string>>();
  for (const group of types.groups) {
    const entries = rootGroup(root.value, version, group);
    taken.set(group, new Set(Object.keys(entries)));
    for (const [name, entry] of Object.entries(entries)) {
      const site = isRecord(entry) ? graph.refs.get(entry) : undefined;
      const target = site?.target;
      if (!site || !target || target.file === root || Object.keys(entry as object).length !== 1) continue;
      if (!isPlainObject(target.node) || homes.has(target.key)) continue;
      homes.set(target.key, groupPointer(group, name));
      inlined.add(site);
    }
  }

  const candidates = new Map<string, [string, Target]>();
  for (const target of graph.targets.values()) {
    if (target.file === root || target.file.isText || !isPlainObject(target.node) || homes.has(target.key)) {
      continue;
    }
    const group = [...target.types].find((type) => type.group !== undefined)?.group;
    if (group !== undefined) candidates.set(target.key, [group, target]);
  }
  const insideAnother = (target: Target) => {
    for (let length = target.tokens.length - 1; length >= 0; length--) {
      const key = `${target.file.path}#${pointerFromTokens(target.tokens.slice(0, length))}`;
      if (candidates.has(key) || homes.has(key)) return true;
    }
    return false;
  };
  const named = [...candidates.values()]
    .filter(([, target]) => !insideAnother(target))
    .sort(([, a], [, b]) => compare(a.file.relative, b.file.relative) || compare(a.key, b.key));
  for (const [group, target] of named) {
    const names = taken.get(group) ?? new Set<string>();
    taken.set(group, names);
    const name = freeName(target, names);
    names.add(name);
    homes.set(target.key, groupPointer(group, name));
    const list = added.get(group) ?? [];
    added.set(group, list);
    list.push([name, target]);
  }
  for (const list of added.values()) list.sort(([a], [b]) => compare(a, b));
  return { homes, added, inlined };
}

/** The root's own entries of a group, as written (an empty record when there are none). */
export function rootGroup(root: unknown, version: SpecVersion, group: string): Record<string, unknown> {
  const holder = version === "oas3" && isRecord(root) ? root.components : root;
  const entries = isRecord(holder) ? holder[group] : undefined;
  return isPlainObject(entries) ? entries : {};
}

/**
 * The first free name among: the base name; the base qualified by the folders of its file, nearest first
 * (`v2-Pet`, `api-v2-Pet`); for a node inside a file, the same qualified by the file too (`errors-Error`,
 * `v2-errors-Error`); then the base numbered (`Pet-2`, `Pet-3`, …).
 */
function freeName(target: Target, taken: Set<string>): string {
  const stem = fileStem(target.file.relative);
  const base = sanitize(target.tokens.at(-1) ?? stem);
  const folders = target.file.relative.split("/").slice(0, -1).reverse();
  const qualified = (qualifiers: string[]) => sanitize([...qualifiers].reverse().concat(base).join("-"));
  const candidates = [base];
  for (let count = 1; count <= folders.length; count++) candidates.push(qualified(folders.slice(0, count)));
  if (target.tokens.length > 0) {
    for (let count = 0; count <= folders.length; count++) {
      candidates.push(qualified([stem, ...folders.slice(0, count)]));
    }
  }
  const free = candidates.find((candidate) => !taken.has(candidate));
  if (free !== undefined) return free;
  for (let number = 2; ; number++) {
    if (!taken.has(`${base}-${number}`)) return `${base}-${number}`;
  }
}

function fileStem(relativePath: string): string {
  const name = basename(relativePath);
  return name.slice(0, name.length - extname(name).length) || name;
}

/** A component name (`^[a-zA-Z0-9._-]+$` in OpenAPI 3). */
function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_") || "_";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !Array.isArray(value);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
