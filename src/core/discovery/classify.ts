import type { NumericVersion } from "./declares.ts";
import type { SpecFlavor } from "./types.ts";

export type Classification =
  | { kind: "spec"; document: Record<string, unknown>; flavor: SpecFlavor; declaredVersion: string }
  | { kind: "other"; reason: string; suspicious?: boolean };

/** Finds how the file writes a top-level version that parsed as a number (see numericVersionOf). */
export type NumericVersionLookup = (key: "openapi" | "swagger", value: number) => NumericVersion | undefined;

/**
 * The discovery rule: a parsed file is an OpenAPI document when its top level is a mapping whose
 * `openapi` is a version starting with `3.` or whose `swagger` is `2.0`. A version written as a number
 * (`swagger: 2.0`, `openapi: 3.1`, which YAML and JSON read as 2 and 3.1) is judged by its text as
 * written, found with `numericVersion`; `declaredVersion` is then that text. Anything else is another
 * kind of file (JSON Schema, AsyncAPI, manifests, fragments). `suspicious` marks another number-valued
 * version (`openapi: 3`), most likely a real spec whose version needs quotes.
 */
export function classifyDocument(value: unknown, numericVersion?: NumericVersionLookup): Classification {
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
    const number = document[key] as number;
    const written = numericVersion?.(key, number);
    if (written !== undefined && isVersionText(key, written.source)) {
      return { kind: "spec", document, flavor: key, declaredVersion: written.source };
    }
    const example = key === "openapi" ? '"3.1.0"' : '"2.0"';
    const as = written === undefined ? "" : ` (written \`${written.written}\`)`;
    return {
      kind: "other",
      suspicious: true,
      reason: `its \`${key}\` is the number ${String(number)}${as}, not a version string; write it in quotes (${key}: ${example}) to have it published`,
    };
  }
  if (typeof openapi === "string") {
    return {
      kind: "other",
      suspicious: true,
      reason: `its \`openapi\` is ${JSON.stringify(openapi.slice(0, 40))}, a version GitBook does not read (3.x, or \`swagger: "2.0"\`)`,
    };
  }
  if (openapi !== undefined) return { kind: "other", reason: "its `openapi` is not a 3.x version string" };
  if (typeof swagger === "string") {
    return {
      kind: "other",
      suspicious: true,
      reason: `its \`swagger\` is ${JSON.stringify(swagger.slice(0, 40))}, not "2.0"`,
    };
  }
  if (swagger !== undefined) return { kind: "other", reason: 'its `swagger` is not "2.0"' };
  return { kind: "other", reason: "it has no top-level `openapi` or `swagger` key" };
}

/** The texts a number can have that state a version plainly: `3.0`, `3.1`, `3.10` and `2.0`. */
function isVersionText(key: "openapi" | "swagger", source: string): boolean {
  return key === "openapi" ? /^3\.\d+$/.test(source) : source === "2.0";
}
