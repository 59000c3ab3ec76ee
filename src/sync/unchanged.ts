/**
 * Whether GitBook already holds the document a run would upload, so that the upload can be skipped and
 * the spec reported `unchanged`. Pure: the caller reads the spec and its latest version's content and
 * passes them in. Only a proof of sameness says "same"; every doubt (a shape we do not know, a failed or
 * unfinished processing, a URL source, a transformation GitBook is known to apply) says "not same", with
 * a one-line reason for the log, and the run uploads as it always did.
 *
 * What the version content holds, and why these rules: docs/version-content.md.
 */
import { readVersionFiles } from "../client/parse.ts";
import type { Spec } from "../client/types.ts";
import { processingFailure } from "./processing.ts";

export type Sameness = { same: true } | { same: false; reason: string };

export interface PublishedSpec {
  /** The spec as GitBook answers `GET …/openapi/{slug}`. */
  spec: Spec;
  /** The body of `GET …/versions/{spec.lastVersion}/content`, unchecked. */
  content: unknown;
}

/** Longest JSON pointer shown in a reason; a longer one keeps its end, after an ellipsis. */
const MAX_POINTER_LENGTH = 120;

export function sameAsPublished(localDocument: unknown, published: PublishedSpec): Sameness {
  const { spec, content } = published;
  if (spec.processingState !== "complete") {
    return differ(
      `GitBook has not finished processing the last upload (state ${quote(spec.processingState)})`,
    );
  }
  const failure = processingFailure(spec);
  if (failure) return differ(`the last processing failed (${failure.code})`);
  if (spec.lastVersion === undefined) return differ("GitBook holds no processed version of this spec");
  if (spec.sourceURL !== undefined) {
    return differ("GitBook reads this spec from a URL, whose content may have changed since");
  }

  if (!isPlainObject(content) || !Object.hasOwn(content, "filesystem")) {
    return differ("GitBook's version content has no filesystem");
  }
  const files = readVersionFiles(content.filesystem);
  if (files.kind === "unknown")
    return differ(`GitBook's version content has an unknown shape: ${files.problem}`);
  const [entry, ...others] = files.entries;
  if (entry === undefined) return differ("GitBook's version content has no files");
  if (others.length > 0) return differ(`GitBook's version content has ${files.entries.length} files`);
  if (!entry.isEntrypoint) return differ("GitBook's version content has no entrypoint");
  if (entry.references.length > 0) {
    return differ(`GitBook's published document refers to ${plural(entry.references.length, "other file")}`);
  }

  if (!isPlainObject(localDocument)) return differ("the local document is not a mapping");
  if (ownValue(localDocument, "swagger") !== undefined) {
    return differ("GitBook converts Swagger 2.0 to OpenAPI 3, so its copy cannot be compared with ours");
  }
  return compare(localDocument, entry.specification);
}

interface Pending {
  local: unknown;
  published: unknown;
  path: PathNode | undefined;
}

/** The path to a value, as a linked list from the value up, so that pushing a child costs nothing. */
interface PathNode {
  key: string;
  parent: PathNode | undefined;
}

/**
 * Deep equality of two parsed JSON-like values, walked without recursion so that any depth is safe.
 * Objects compare their own enumerable keys in any order (a `__proto__` key is data like any other),
 * arrays their items in order, primitives with `===`. A local value JSON cannot carry (a Date, a
 * function, `undefined`, NaN) never equals anything. A published object met twice (shared or cyclic, which
 * JSON cannot produce) ends the walk as a difference, so that the walk always ends.
 */
function compare(localDocument: unknown, publishedDocument: unknown): Sameness {
  const seen = new Set<object>();
  const stack: Pending[] = [{ local: localDocument, published: publishedDocument, path: undefined }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { local, published, path } = next;
    if (typeof local !== "object" || local === null) {
      if (local === published && isJsonPrimitive(local)) continue;
      return differAt(path);
    }
    if (typeof published !== "object" || published === null) return differAt(path);
    if (seen.has(published)) return differAt(path);
    seen.add(published);

    if (Array.isArray(local)) {
      if (!Array.isArray(published) || local.length !== published.length) return differAt(path);
      for (let index = local.length - 1; index >= 0; index--) {
        const key = String(index);
        stack.push({
          local: ownValue(local, key),
          published: ownValue(published, key),
          path: { key, parent: path },
        });
      }
      continue;
    }
    if (!isPlainObject(local) || !isPlainObject(published)) return differAt(path);
    const ref = ownValue(local, "$ref");
    if (typeof ref === "string" && !ref.startsWith("#")) {
      return differ(
        `the local document refers to another file (${pointerOf(path)}/$ref), which GitBook bundles`,
      );
    }
    const keys = Object.keys(local);
    const publishedKeys = Object.keys(published);
    if (keys.length !== publishedKeys.length)
      return differAt(firstExtraKey(published, publishedKeys, local, path));
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index] as string;
      if (!Object.hasOwn(published, key)) return differAt({ key, parent: path });
      stack.push({
        local: ownValue(local, key),
        published: ownValue(published, key),
        path: { key, parent: path },
      });
    }
  }
  return { same: true };
}

/** Where two objects with different key counts differ: a key only one of them has. */
function firstExtraKey(
  published: Record<string, unknown>,
  publishedKeys: string[],
  local: Record<string, unknown>,
  path: PathNode | undefined,
): PathNode | undefined {
  const onlyPublished = publishedKeys.find((key) => !Object.hasOwn(local, key));
  if (onlyPublished !== undefined) return { key: onlyPublished, parent: path };
  const onlyLocal = Object.keys(local).find((key) => !Object.hasOwn(published, key));
  return onlyLocal === undefined ? path : { key: onlyLocal, parent: path };
}

function isJsonPrimitive(value: unknown): boolean {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/** An object literal or JSON object: its prototype is Object.prototype or null (not a Date, Map, …). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** An own data property's value; an inherited key, or an accessor, reads as undefined. */
function ownValue(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

function differAt(path: PathNode | undefined): Sameness {
  return differ(`GitBook holds a different document (first difference at ${pointerOf(path)})`);
}

/** The JSON pointer of a path ("/paths/~1pets/get"), "the root" for none, cut to its last characters. */
function pointerOf(path: PathNode | undefined): string {
  if (path === undefined) return "the root";
  let pointer = "";
  for (let node: PathNode | undefined = path; node !== undefined; node = node.parent) {
    pointer = `/${node.key.replaceAll("~", "~0").replaceAll("/", "~1")}${pointer}`;
    if (pointer.length > MAX_POINTER_LENGTH) return `…${pointer.slice(-MAX_POINTER_LENGTH)}`;
  }
  return pointer;
}

function differ(reason: string): Sameness {
  return { same: false, reason };
}

function quote(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
