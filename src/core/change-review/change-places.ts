/**
 * Where the head spec writes what a change concerns: each change's JSON pointer (into the compared,
 * bundled document) followed back through the root file and its `$ref`s to the file and line that
 * write it (validation/bundled-locations.ts, as validation problems are located). What the head no
 * longer has (a removed operation, response, media type) is placed at its deepest part the head still
 * writes: the path item, the `responses` of the operation; and, when the base's sources are at hand,
 * also where the base wrote it. Located after the comparison and only for the changes it lists, one
 * parse per file touched (docs/design/code-quality.md).
 */

import { bundledPathSource, type ReferencedSource } from "../bundling/bundled-locations.ts";
import { bundleSpec } from "../bundling/index.ts";
import { pointerTokens } from "../bundling/pointer.ts";
import { inspectFile, loadSpec } from "../discovery/index.ts";
import type { TextFormat } from "../documents/format.ts";
import { locateKeyPaths } from "../documents/locate-many.ts";
import type { SpecChanges } from "../result.ts";

/** A place in the workspace: a `/`-separated path relative to it, and a line from 1. */
export interface SourcePlace {
  file: string;
  line: number;
}

/** A spec's root file and the nodes its `$ref`s reach in other files (none for a single file). */
export interface SpecSources {
  root: { file: string; text: string; format: TextFormat; document: unknown };
  referenced: readonly ReferencedSource[];
}

/**
 * The sources of the spec at `file` in `workspace`, read as a run reads it (bundled when it references
 * other files); undefined when it cannot be read so any more: its changes then go without a place.
 */
export async function readSpecSources(workspace: string, file: string): Promise<SpecSources | undefined> {
  try {
    const inspection = await inspectFile(workspace, file);
    if (inspection.kind !== "spec") return undefined;
    const loaded = loadSpec(inspection.spec);
    if (!loaded.ok) return undefined;
    const spec = loaded.spec;
    const root = { file: spec.path, text: spec.text, format: spec.format, document: spec.document };
    if (spec.referencesOtherFiles === false) return { root, referenced: [] };
    const bundled = await bundleSpec(spec.absolutePath, { workspace }, spec.text, () => spec.document);
    return { root, referenced: bundled.referenced ?? [] };
  } catch {
    return undefined;
  }
}

/** A pointer's place, and whether the node it names is written there (else its deepest written part is). */
export interface PointerPlace extends SourcePlace {
  exact: boolean;
}

/** Where each pointer (`#/paths/~1pets/get`) is written: one parse of each file it leads into. */
export function placesOf(sources: SpecSources, pointers: readonly string[]): PointerPlace[] {
  const byFile = new Map<string, { text: string; format: TextFormat; keyPaths: string[][]; at: number[] }>();
  const exact: boolean[] = [];
  const sourced = pointers.map((pointer, index) => {
    const tokens = pointerTokens(pointer.replace(/^#/, ""));
    const source = bundledPathSource(sources.root, sources.referenced, tokens);
    exact.push(source.reached);
    let entry = byFile.get(source.file);
    if (!entry) {
      entry = { text: source.text, format: source.format, keyPaths: [], at: [] };
      byFile.set(source.file, entry);
    }
    entry.keyPaths.push(source.keyPath);
    entry.at.push(index);
    return source.file;
  });
  const places: PointerPlace[] = sourced.map((file, index) => ({
    file,
    line: 1,
    exact: exact[index] as boolean,
  }));
  for (const [file, entry] of byFile) {
    const located = locateKeyPaths(entry.text, entry.format, entry.keyPaths);
    located.forEach((found, i) => {
      const at = entry.at[i] as number;
      places[at] = { file, line: found.position.line, exact: exact[at] as boolean };
    });
  }
  return places;
}

/** Where a spec's sources are: its file, in the head's workspace and, when the review read it, the base commit's. */
export interface SourcesAt {
  workspace: string;
  file: string;
  /** The base commit's files, written out; absent when the review compares with no base files. */
  base?: string | undefined;
}

/** Where a pointer is written in the head's files and, for what the head does not write, in the base's. */
export interface ChangePlace extends SourcePlace {
  baseFile?: string;
  baseLine?: number;
}

/**
 * Where each of `pointers` is written, in the sources `where` names, read here: the head's, then, only
 * for what the head does not write, the base's, each let go before the next is read (a 4 MB spec's
 * document is tens of MB). Undefined when the head's sources cannot be read.
 */
export async function placesAt(
  where: SourcesAt,
  pointers: readonly string[],
): Promise<Map<string, ChangePlace> | undefined> {
  const { base } = where;
  return placesOfPointers(
    () => readSpecSources(where.workspace, where.file),
    pointers,
    base === undefined ? undefined : () => readSpecSources(base, where.file),
  );
}

async function placesOfPointers(
  headSources: () => Promise<SpecSources | undefined>,
  pointers: readonly string[],
  baseSources: (() => Promise<SpecSources | undefined>) | undefined,
): Promise<Map<string, ChangePlace> | undefined> {
  if (pointers.length === 0) return new Map();
  const sources = await headSources();
  if (!sources) return undefined;
  const places = placesOf(sources, pointers);
  const placeOf = new Map<string, ChangePlace>();
  const gone: string[] = [];
  pointers.forEach((pointer, index) => {
    const place = places[index] as PointerPlace;
    placeOf.set(pointer, { file: place.file, line: place.line });
    if (!place.exact) gone.push(pointer);
  });
  const base = gone.length > 0 && baseSources ? await baseSources() : undefined;
  if (base) {
    placesOf(base, gone).forEach((place, index) => {
      const pointer = gone[index] as string;
      const head = placeOf.get(pointer);
      if (place.exact && head) placeOf.set(pointer, { ...head, baseFile: place.file, baseLine: place.line });
    });
  }
  return placeOf;
}

/** The pointers of a spec's listed changes, each once (many changes share one: findings in one schema). */
export function changePointers(changes: Pick<SpecChanges, "breaking" | "allowed" | "other">): string[] {
  return [
    ...new Set(
      [changes.breaking, changes.allowed, changes.other].flat().flatMap((change) => change.pointer ?? []),
    ),
  ];
}

/** The changes, each listed one with its pointer's place in `places` (file, line; base file and line). */
export function withPlaces(changes: SpecChanges, places: ReadonlyMap<string, ChangePlace>): SpecChanges {
  const placed = (list: SpecChanges["breaking"]) =>
    list.map((change) => {
      const place = change.pointer === undefined ? undefined : places.get(change.pointer);
      return place ? { ...change, ...place } : change;
    });
  return {
    ...changes,
    breaking: placed(changes.breaking),
    other: placed(changes.other),
    allowed: placed(changes.allowed),
  };
}

/**
 * The spec's changes, each listed one with its place (`file`, `line`) when it has a pointer; the lists
 * as they were when the sources cannot be read. What the head does not write (a removal) is placed in
 * the base too (`baseFile`, `baseLine`) when `baseSources` gives the base's sources: they are read only
 * then.
 */
export async function placedChanges(
  changes: SpecChanges,
  sources: SpecSources | undefined,
  baseSources?: () => Promise<SpecSources | undefined>,
): Promise<SpecChanges> {
  const places = await placesOfPointers(async () => sources, changePointers(changes), baseSources);
  return places ? withPlaces(changes, places) : changes;
}
