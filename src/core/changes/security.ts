/**
 * Security compared on the effective requirement of every operation (its own, else the document's): a
 * requirement a client met before and does not meet now is breaking; more alternatives are not.
 */
import type { Collector, Place } from "./collector.ts";
import { isObject, type Json } from "./document.ts";
import { matchPaths } from "./paths.ts";
import type { ChangeKind } from "./rules.ts";
import { quote } from "./text.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The alternatives of a requirement list, each a sorted `scheme[scope,…]` conjunction ("" for none). */
function alternatives(requirements: unknown): Set<string> {
  if (!Array.isArray(requirements) || requirements.length === 0) return new Set([""]);
  return new Set(
    requirements.map((r) =>
      isObject(r)
        ? Object.entries(r)
            .map(([k, v]) => `${k}[${(Array.isArray(v) ? v.map(String) : []).sort().join(",")}]`)
            .sort()
            .join("+")
        : "",
    ),
  );
}

const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));

function securityKind(before: unknown, after: unknown): ChangeKind | undefined {
  const x = alternatives(before);
  const y = alternatives(after);
  if (x.size === y.size && subset(x, y)) return undefined;
  if (subset(x, y)) return "security-relaxed";
  return x.has("") ? "security-added" : "security-changed";
}

const describe = (v: unknown) =>
  quote([...alternatives(v)].map((s) => (s === "" ? "none" : s)).join(" or "), 120);

export function securityChanges(
  a: Json,
  b: Json,
  out: Collector,
  placeOf: (path: string, method: string) => Place,
): void {
  const global = securityKind(a.security, b.security);
  if (global !== undefined)
    out.add(
      global,
      "request",
      {},
      ["security"],
      `every operation without its own security: ${describe(a.security)} → ${describe(b.security)}`,
    );
  const pathsA = isObject(a.paths) ? a.paths : {};
  const pathsB = isObject(b.paths) ? b.paths : {};
  const matches = matchPaths(Object.keys(pathsA), Object.keys(pathsB));
  for (const [path, itemA] of Object.entries(pathsA)) {
    const pathB = matches.get(path);
    const itemB = pathB === undefined ? undefined : pathsB[pathB];
    if (pathB === undefined || !isObject(itemA) || !isObject(itemB)) continue;
    for (const method of METHODS) {
      const opA = itemA[method];
      const opB = itemB[method];
      if (!isObject(opA) || !isObject(opB)) continue;
      if (opA.security === undefined && opB.security === undefined) continue;
      const before = opA.security ?? a.security;
      const after = opB.security ?? b.security;
      const kind = securityKind(before, after);
      if (kind === undefined) continue;
      out.add(
        kind,
        "request",
        placeOf(pathB, method),
        ["paths", pathB, method, "security"],
        `security ${describe(before)} → ${describe(after)}`,
      );
    }
  }
}
