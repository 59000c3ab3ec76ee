/**
 * An independent oracle for the round-trip test: follows `$ref`s lazily, the way a dereferencer would,
 * and compares two documents as graphs. A pair of nodes already under comparison is assumed equal
 * (coinduction), so circular references terminate and compare correctly.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** Returns the parsed document stored at a `file:` URL without fragment. */
export type DocumentLoader = (url: string) => unknown;

interface Located {
  url: string;
  value: unknown;
}

export function diskLoader(): DocumentLoader {
  const cache = new Map<string, unknown>();
  return (url) => {
    if (!cache.has(url)) cache.set(url, parse(readFileSync(fileURLToPath(url), "utf8")));
    return cache.get(url);
  };
}

export function memoryLoader(url: string, document: unknown): DocumentLoader {
  return (requested) => {
    if (requested !== url) throw new Error(`the bundle refers to another document: ${requested}`);
    return document;
  };
}

/**
 * Where a bundle may hold keys its source has not: the new named components, under `components` (and a
 * `components` key at the top) in OpenAPI 3, under `definitions`, `parameters`, `responses` in Swagger 2.0.
 */
export function mayHoldNewComponents(path: string): boolean {
  return /^(|\/components(\/[^/]+)?|\/definitions|\/parameters|\/responses)$/.test(path);
}

/** Null when both graphs dereference to the same value, otherwise the path of the first difference. */
export function firstDifference(
  a: Located,
  loadA: DocumentLoader,
  b: Located,
  loadB: DocumentLoader,
  mayAddKeysAt: (path: string) => boolean = () => false,
): string | null {
  const assumedEqual = new Map<unknown, Set<unknown>>();

  const compare = (left: Located, right: Located, path: string): string | null => {
    const l = followRefs(left, loadA);
    const r = followRefs(right, loadB);
    if (isMappingReference(path, l.value) && typeof r.value === "string") {
      // A discriminator mapping value that names a schema by reference: compare the schemas it names.
      return compare(
        { url: l.url, value: { $ref: l.value } },
        { url: r.url, value: { $ref: r.value } },
        `${path}→`,
      );
    }
    if (!isObject(l.value) || !isObject(r.value)) {
      return Object.is(l.value, r.value)
        ? null
        : `${path}: ${JSON.stringify(l.value)} ≠ ${JSON.stringify(r.value)}`;
    }
    if (Array.isArray(l.value) !== Array.isArray(r.value)) return `${path}: array vs object`;
    const pairs = assumedEqual.get(l.value) ?? new Set();
    if (pairs.has(r.value)) return null;
    pairs.add(r.value);
    assumedEqual.set(l.value, pairs);

    const leftKeys = Object.keys(l.value).sort();
    const rightKeys = Object.keys(r.value)
      .filter((key) => key in (l.value as object) || !mayAddKeysAt(path))
      .sort();
    if (leftKeys.join("\0") !== rightKeys.join("\0")) return `${path}: keys [${leftKeys}] ≠ [${rightKeys}]`;
    for (const key of leftKeys) {
      const difference = compare(
        { url: l.url, value: l.value[key] },
        { url: r.url, value: r.value[key] },
        `${path}/${key}`,
      );
      if (difference !== null) return difference;
    }
    return null;
  };
  return compare(a, b, "");
}

function isMappingReference(path: string, value: unknown): value is string {
  return (
    /\/discriminator\/mapping\/[^/]+$/.test(path) &&
    typeof value === "string" &&
    (/[/#]/.test(value) || /\.(ya?ml|json)$/i.test(value))
  );
}

function followRefs(node: Located, load: DocumentLoader): Located {
  let current = node;
  for (let hops = 0; hops < 100; hops++) {
    if (!isObject(current.value) || typeof current.value.$ref !== "string") return current;
    const target = new URL(current.value.$ref, current.url);
    const fragment = decodeURIComponent(target.hash.slice(1));
    target.hash = "";
    current = { url: target.href, value: resolvePointer(load(target.href), fragment, target.href) };
  }
  throw new Error(`reference loop without a value at ${node.url}`);
}

function resolvePointer(document: unknown, pointer: string, url: string): unknown {
  if (pointer === "") return document;
  let value = document;
  for (const token of pointer.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(value) || !(key in value)) throw new Error(`${url}#${pointer} does not exist`);
    value = value[key];
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
