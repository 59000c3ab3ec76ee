import path from "node:path";

export type TextFormat = "yaml" | "json";

/**
 * The one rule for whether a file is JSON or YAML: its extension (`.json`; `.yaml`, `.yml`), and for a
 * file named otherwise (a `$ref` to `schema.txt`), its text: an object opening with `{` is JSON.
 */
export function formatOf(filePath: string, text?: string): TextFormat {
  const extension = path.extname(filePath).toLowerCase();
  if (extension === ".json") return "json";
  if (extension === ".yaml" || extension === ".yml" || text === undefined) return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}
