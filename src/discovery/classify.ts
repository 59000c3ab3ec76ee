import type { SpecFlavor } from "./types.ts";

export type Classification =
  | { kind: "spec"; document: Record<string, unknown>; flavor: SpecFlavor; declaredVersion: string }
  | { kind: "other"; reason: string; suspicious?: boolean };

/**
 * The discovery rule: a parsed file is an OpenAPI document when its top level is a mapping whose
 * `openapi` is a string starting with `3.` or whose `swagger` is "2.0". Anything else is another kind of
 * file (JSON Schema, AsyncAPI, manifests, fragments). `suspicious` marks a number-valued version
 * (`openapi: 3.1` in YAML), most likely a real spec whose version needs quotes.
 */
export function classifyDocument(value: unknown): Classification {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "other", reason: "its top level is not a mapping" };
  }
  const document = value as Record<string, unknown>;
  const { openapi, swagger } = document;
  if (typeof openapi === "string" && openapi.startsWith("3.")) {
    return { kind: "spec", document, flavor: "openapi", declaredVersion: openapi };
  }
  if (swagger === "2.0") return { kind: "spec", document, flavor: "swagger", declaredVersion: swagger };
  if (typeof openapi === "number" || typeof swagger === "number") {
    const key = typeof openapi === "number" ? "openapi" : "swagger";
    const example = key === "openapi" ? '"3.1.0"' : '"2.0"';
    return {
      kind: "other",
      suspicious: true,
      reason: `its \`${key}\` is the number ${String(document[key])}, not a version string; write it in quotes (${key}: ${example}) to have it published`,
    };
  }
  if (openapi !== undefined) return { kind: "other", reason: "its `openapi` is not a 3.x version string" };
  if (swagger !== undefined) return { kind: "other", reason: 'its `swagger` is not "2.0"' };
  return { kind: "other", reason: "it has no top-level `openapi` or `swagger` key" };
}
