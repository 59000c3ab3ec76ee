/**
 * Where the head spec writes what a change concerns: each change's JSON pointer (into the compared,
 * bundled document) followed back through the root file and its `$ref`s to the file and line that
 * write it (validation/bundled-locations.ts, as validation problems are located). What the head no
 * longer has (a removed operation, response, media type) is placed at its deepest part the head still
 * writes: the path item, the `responses` of the operation; and, when the base's sources are at hand,
 * also where the base wrote it. Located after the comparison and only for the changes it lists, one
 * parse per file touched; a spec of one file from its text, unparsed (docs/design/code-quality.md).
 */

import { bundledPathSource, type ReferencedSource } from "../bundling/bundled-locations.ts";
import { mayReferenceOtherFiles } from "../bundling/external-refs.ts";
import { bundleSpec } from "../bundling/index.ts";
import { pointerTokens } from "../bundling/pointer.ts";
import { textPlaces } from "../bundling/text-locations.ts";
import { inspectFile } from "../discovery/index.ts";
import { loadBytes } from "../discovery/load.ts";
import { parseText } from "../discovery/parse.ts";
import type { TextFormat } from "../documents/format.ts";
import { locateKeyPaths } from "../documents/locate-many.ts";
import { MAX_SPEC_BYTES, withRegularFile } from "../files/read-regular.ts";
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
    const found = inspection.spec;
    // One file: placed from its text (bundling/text-locations.ts), its document built only if need be.
    const loaded = withRegularFile(
      found.realPath,
      { maxBytes: MAX_SPEC_BYTES, label: found.path },
      (bytes, owned) => {
        const text = bytes.toString("utf8");
        return mayReferenceOtherFiles(text) ? loadBytes(bytes, found, owned) : text;
      },
    );
    if (typeof loaded === "string")
      return { root: oneFileRoot(found.path, loaded, found.format), referenced: [] };
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

/** A source that no longer parses as it did when the comparison read it. */
class SourceGoneError extends Error {}

/** A root whose document is parsed from its text when first asked for; a text that no longer parses throws. */
function oneFileRoot(file: string, text: string, format: TextFormat): SpecSources["root"] {
  let document: unknown;
  return {
    file,
    text,
    format,
    get document() {
      if (document === undefined) {
        const parsed = parseText(text, format);
        if (!parsed.ok) throw new SourceGoneError(`${file} no longer parses: ${parsed.problem.message}`);
        document = parsed.value;
      }
      return document;
    },
  };
}

/** A pointer's place, and whether the node it names is written there (else its deepest written part is). */
export interface PointerPlace extends SourcePlace {
  exact: boolean;
}

/** Where each pointer (`#/paths/~1pets/get`) is written: one parse of each file it leads into. */
export function placesOf(sources: SpecSources, pointers: readonly string[]): PointerPlace[] {
  const tokensOf = pointers.map((pointer) => pointerTokens(pointer.replace(/^#/, "")));
  const { root } = sources;
  const inText = sources.referenced.length === 0 ? textPlaces(root.text, root.format, tokensOf) : undefined;
  if (inText)
    return inText.map(({ position, reached }) => ({ file: root.file, line: position.line, exact: reached }));
  const byFile = new Map<string, { text: string; format: TextFormat; keyPaths: string[][]; at: number[] }>();
  const exact: boolean[] = [];
  const sourced = tokensOf.map((tokens, index) => {
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

/** The pointers' places; undefined when the sources, read lazily, turn out not to parse. */
function placesOrNone(sources: SpecSources, pointers: readonly string[]): PointerPlace[] | undefined {
  try {
    return placesOf(sources, pointers);
  } catch (error) {
    if (error instanceof SourceGoneError) return undefined;
    throw error;
  }
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
  if (!sources) return changes;
  const lists = [changes.breaking, changes.allowed, changes.other];
  // Many changes share a pointer (each finding inside one response's schema): each is located once.
  const pointers = [...new Set(lists.flat().flatMap((change) => change.pointer ?? []))];
  if (pointers.length === 0) return changes;
  const places = placesOrNone(sources, pointers);
  if (!places) return changes;
  const placeOf = new Map(pointers.map((pointer, index) => [pointer, places[index] as PointerPlace]));
  const gone = pointers.filter((_, index) => !places[index]?.exact);
  const base = gone.length > 0 && baseSources ? await baseSources() : undefined;
  const baseOf = new Map<string, PointerPlace>();
  const found = base && placesOrNone(base, gone);
  if (found) {
    gone.forEach((pointer, index) => {
      const place = found[index];
      if (place?.exact) baseOf.set(pointer, place);
    });
  }
  const placed = (list: SpecChanges["breaking"]) =>
    list.map((change) => {
      if (change.pointer === undefined) return change;
      const place = placeOf.get(change.pointer);
      const before = baseOf.get(change.pointer);
      if (!place) return change;
      return {
        ...change,
        file: place.file,
        line: place.line,
        ...(before ? { baseFile: before.file, baseLine: before.line } : {}),
      };
    });
  return {
    ...changes,
    breaking: placed(changes.breaking),
    other: placed(changes.other),
    allowed: placed(changes.allowed),
  };
}
