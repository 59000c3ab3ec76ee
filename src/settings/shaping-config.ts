/**
 * The shaping fields of a `specs:` entry (`overlays`, `remove-internal`, `audiences`; example in
 * docs/overlays-and-audiences.md), read with every problem at its `file:line:column`, and passed to the
 * run as one value ({@link SHAPING_INPUT}) that `readConfig` turns into `RunSettings.shaping`.
 */
import type { Node, Pair } from "yaml";
import { yamlPackage } from "../core/documents/yaml-package.ts";
import type { AudienceEntry, SpecShaping } from "../core/shaping/publish-targets.ts";
import { explainInvalidSlug } from "../core/slugs/rule.ts";
import { unknownName } from "../core/text/closest.ts";
import { SHAPING_INPUT, shapingValue } from "./shaping-value.ts";

export { SHAPING_INPUT, shapingValue };

/** The shaping fields of a spec entry. */
export const SHAPING_FIELDS = ["overlays", "remove-internal", "audiences"] as const;
/** The fields of an audience under a spec entry's `audiences`. */
const AUDIENCE_FIELDS = ["slug", "overlays", "remove-internal"];

const AUDIENCE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Fail = (node: Node | null | undefined, message: string) => Error;

/**
 * The shaping of one entry, from its shaping fields (`fields`, each a pair of the entry); `where` is the
 * entry's key. Undefined when it has none.
 */
export function readSpecShaping(
  where: string,
  fields: readonly Pair[],
  keyNode: Node,
  fail: Fail,
): SpecShaping | undefined {
  if (fields.length === 0) return undefined;
  if (/[*?[]/.test(where))
    throw fail(
      keyNode,
      `overlays, remove-internal and audiences shape one file, and '${where}' is a glob; give the file's path.`,
    );
  let overlays: string[] = [];
  let removeInternal = false;
  let audiences: AudienceEntry[] = [];
  for (const field of fields) {
    const name = String((field.key as { value?: unknown }).value);
    const value = field.value as Node | null;
    if (name === "overlays") overlays = readOverlays(value, fail);
    else if (name === "remove-internal") removeInternal = readBoolean(value, "remove-internal", fail);
    else audiences = readAudiences(value, fail);
  }
  return { overlays, removeInternal, audiences };
}

function readOverlays(node: Node | null, fail: Fail): string[] {
  const { isScalar, isSeq } = yamlPackage();
  const items = isSeq(node) ? (node.items as Node[]) : [node];
  if (isSeq(node) && items.length === 0) throw fail(node, "'overlays' lists at least one overlay file.");
  return items.map((item) => {
    const value = isScalar(item) ? item.value : undefined;
    if (typeof value !== "string" || value.trim() === "")
      throw fail(item ?? node, "'overlays' is an overlay file's path, or a list of them.");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(value))
      throw fail(
        item,
        `${JSON.stringify(value)}: an overlay's path has a control character (a line break?); rename the file without one.`,
      );
    const file = value.trim().replaceAll("\\", "/").replace(/^\.\//, "");
    if (file.startsWith("/") || /^[A-Za-z]:/.test(file) || file.split("/").includes(".."))
      throw fail(item, `'${value}': an overlay's path is relative to the workspace and stays inside it.`);
    return file;
  });
}

function readBoolean(node: Node | null, name: string, fail: Fail): boolean {
  const { isScalar } = yamlPackage();
  const value = isScalar(node) ? node.value : undefined;
  if (typeof value !== "boolean") throw fail(node, `'${name}' must be true or false.`);
  return value;
}

function readAudiences(node: Node | null, fail: Fail): AudienceEntry[] {
  const { isMap, isScalar } = yamlPackage();
  if (!isMap(node) || node.items.length === 0)
    throw fail(
      node,
      "'audiences' maps each audience's name to its entry (slug, overlays, remove-internal), e.g. `public: { slug: payments, remove-internal: true }`.",
    );
  return node.items.map((pair) => {
    const keyNode = pair.key as Node;
    const name = isScalar(keyNode) ? keyNode.value : undefined;
    if (typeof name !== "string" || !AUDIENCE_NAME.test(name))
      throw fail(
        keyNode,
        `an audience's name is lowercase letters and digits, words joined by '-' (it ends derived slugs): ${JSON.stringify(name)} is not one.`,
      );
    const entry = pair.value as Node | null;
    if (entry !== null && !(isScalar(entry) && entry.value === null) && !isMap(entry))
      throw fail(entry, `the audience '${name}' is a mapping (slug, overlays, remove-internal).`);
    let slug: string | undefined;
    let overlays: string[] = [];
    let removeInternal = false;
    for (const field of isMap(entry) ? entry.items : []) {
      const key = isScalar(field.key) ? String(field.key.value) : "";
      const value = field.value as Node | null;
      if (key === "slug") {
        const text = isScalar(value) ? value.value : undefined;
        if (typeof text !== "string") throw fail(value, "'slug' must be a text.");
        const invalid = explainInvalidSlug(text);
        if (invalid)
          throw fail(value, `the slug '${text}' of audience '${name}' cannot be used: ${invalid}.`);
        slug = text;
      } else if (key === "overlays") overlays = readOverlays(value, fail);
      else if (key === "remove-internal") removeInternal = readBoolean(value, "remove-internal", fail);
      else
        throw fail(
          field.key as Node,
          unknownName(`field '${key}' of the audience '${name}'`, key, AUDIENCE_FIELDS, "fields"),
        );
    }
    return { name, ...(slug !== undefined ? { slug } : {}), overlays, removeInternal };
  });
}
