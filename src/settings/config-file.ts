/**
 * The configuration file (`gitbook-openapi.yaml`, or the `config` setting): the settings of
 * ./settings-table.ts by name, and per-spec entries under `specs` (docs/configuration.md). Every problem
 * is an error at its `file:line:column`, before any request; secrets are refused, the file is committed.
 */
import path from "node:path";
import type { Node, Pair } from "yaml";
import { yamlPackage } from "../core/documents/yaml-package.ts";
import { readRegularText } from "../core/files/read-regular.ts";
import type { SpecShaping } from "../core/shaping/publish-targets.ts";
import { unknownName } from "../core/text/closest.ts";
import { ConfigFileError } from "./config-file-error.ts";
import { SETTINGS, type SettingDeclaration } from "./settings-table.ts";
import { readSpecShaping, SHAPING_FIELDS, SHAPING_INPUT, shapingValue } from "./shaping-config.ts";

/** Looked for at the workspace root when no file is named. */
export const DEFAULT_CONFIG_FILES = ["gitbook-openapi.yaml", "gitbook-openapi.yml"] as const;

/** A configuration file is a few lines; anything larger is not one. */
const MAX_CONFIG_BYTES = 256 * 1024;

export { ConfigFileError };

export interface ConfigFile {
  /** As the user named it (relative to the workspace). */
  readonly file: string;
  /** Setting name → the value as an input's text (lines joined with `\n`). */
  readonly values: ReadonlyMap<string, string>;
}

/** Keys of the file: every setting that is neither a secret nor given per run, and `specs`. */
const FILE_SETTINGS = new Map(SETTINGS.filter((s) => !s.secret && !s.perRun).map((s) => [s.name, s]));

/**
 * The configuration of a workspace: the named file (an error when missing), else the default file when
 * it exists, else undefined.
 */
export function readConfigFile(workspace: string, named: string | undefined): ConfigFile | undefined {
  const candidates = named ? [named] : DEFAULT_CONFIG_FILES;
  for (const file of candidates) {
    const absolute = path.resolve(workspace, file);
    let text: string;
    try {
      text = readRegularText(absolute, { maxBytes: MAX_CONFIG_BYTES, label: file });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && !named) continue;
      const reason =
        (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : (error as Error).message;
      throw new ConfigFileError(`${file}: the configuration file ${reason}`);
    }
    return parseConfigFile(text, file);
  }
  return undefined;
}

export function parseConfigFile(text: string, file: string): ConfigFile {
  const { isMap, isScalar, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (node: Node | null | undefined) => {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const [first] = document.errors;
  if (first) {
    const { line, col } = lines.linePos(first.pos[0]);
    throw new ConfigFileError(`${file}:${line}:${col}: ${first.message.split("\n")[0]}`);
  }
  const values = new Map<string, string>();
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { file, values };
  if (!isMap(root))
    throw new ConfigFileError(`${at(root)}: the configuration must be a mapping of settings.`);
  const slugLines: string[] = [];
  const excluded: string[] = [];
  const shaping = new Map<string, SpecShaping>();
  for (const pair of root.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : "";
    const value = pair.value as Node | null;
    if (key === "specs") {
      readSpecs(value, at, slugLines, excluded, shaping);
      continue;
    }
    const setting = FILE_SETTINGS.get(key);
    if (setting === undefined) {
      const secret = SETTINGS.find((s) => s.name === key);
      throw new ConfigFileError(
        secret?.secret
          ? `${at(keyNode)}: '${key}' is a secret and never belongs in a committed file; pass it as a secret input or variable.`
          : secret?.perRun
            ? `${at(keyNode)}: '${key}' is given per run (an input, a flag or a variable), not in the configuration file.`
            : `${at(keyNode)}: ${unknownName(`setting '${key}'`, key, [...FILE_SETTINGS.keys(), "specs"], "settings")}`,
      );
    }
    values.set(key, settingValue(setting, value, at));
  }
  if (slugLines.length > 0)
    values.set("slugs", [values.get("slugs"), ...slugLines].filter(Boolean).join("\n"));
  if (excluded.length > 0)
    values.set("exclude", [values.get("exclude"), ...excluded].filter(Boolean).join("\n"));
  if (shaping.size > 0) values.set(SHAPING_INPUT, shapingValue(shaping));
  return { file, values };
}

/** The fields of a spec entry under `specs`. */
const SPEC_FIELDS = ["slug", "exclude", ...SHAPING_FIELDS];

function settingValue(
  setting: SettingDeclaration,
  node: Node | null,
  at: (node: Node | null) => string,
): string {
  const { isMap, isScalar, isSeq } = yamlPackage();
  const wrong = (expected: string) =>
    new ConfigFileError(`${at(node)}: '${setting.name}' must be ${expected}.`);
  const scalar = (n: Node | null) => (isScalar(n) ? n.value : undefined);
  switch (setting.kind) {
    case "boolean": {
      const value = scalar(node);
      if (typeof value !== "boolean") throw wrong("true or false");
      return String(value);
    }
    case "integer": {
      const value = scalar(node);
      if (typeof value !== "number" || !Number.isInteger(value)) throw wrong("a whole number");
      return String(value);
    }
    case "text": {
      const value = scalar(node);
      if (typeof value !== "string") throw wrong("a text");
      return value;
    }
    case "lines": {
      if (isSeq(node)) {
        return node.items
          .map((item) => {
            const value = scalar(item as Node);
            if (typeof value !== "string")
              throw new ConfigFileError(
                `${at(item as Node)}: each item of '${setting.name}' must be a text.`,
              );
            return value;
          })
          .join("\n");
      }
      const value = scalar(node);
      if (typeof value !== "string") throw wrong("a list of texts");
      return value;
    }
    case "slugs": {
      if (!isMap(node)) throw wrong("a mapping of file paths to slugs");
      return node.items
        .map((pair) => {
          const file = scalar(pair.key as Node);
          const slug = scalar(pair.value as Node);
          if (typeof file !== "string" || typeof slug !== "string")
            throw new ConfigFileError(`${at(pair.key as Node)}: each entry of 'slugs' is 'path: slug'.`);
          return `${file}: ${slug}`;
        })
        .join("\n");
    }
  }
}

function readSpecs(
  node: Node | null,
  at: (node: Node | null) => string,
  slugLines: string[],
  excluded: string[],
  shaping: Map<string, SpecShaping>,
): void {
  const { isMap, isScalar } = yamlPackage();
  if (!isMap(node))
    throw new ConfigFileError(`${at(node)}: 'specs' must be a mapping of paths or globs to entries.`);
  for (const pair of node.items) {
    const keyNode = pair.key as Node;
    const where = isScalar(keyNode) ? keyNode.value : undefined;
    if (typeof where !== "string" || where.trim() === "")
      throw new ConfigFileError(`${at(keyNode)}: each key of 'specs' is a path or a glob.`);
    const entry = pair.value as Node | null;
    if (!isMap(entry))
      throw new ConfigFileError(
        `${at(entry ?? keyNode)}: the entry of '${where}' must be a mapping (slug, exclude, ${SHAPING_FIELDS.join(", ")}).`,
      );
    const shapingFields = entry.items.filter(
      (field) => isScalar(field.key) && (SHAPING_FIELDS as readonly unknown[]).includes(field.key.value),
    );
    const fail = (node: Node | null | undefined, message: string) =>
      new ConfigFileError(`${at(node ?? keyNode)}: ${message}`);
    const shaped = readSpecShaping(where, shapingFields as Pair[], keyNode, fail);
    if (shaped) shaping.set(where, shaped);
    for (const field of entry.items) {
      const name = isScalar(field.key) ? String(field.key.value) : "";
      if (shapingFields.includes(field)) continue;
      const value = isScalar(field.value) ? field.value.value : undefined;
      if (name === "slug") {
        if (typeof value !== "string")
          throw new ConfigFileError(`${at(field.value as Node)}: 'slug' must be a text.`);
        if (/[*?[]/.test(where))
          throw new ConfigFileError(
            `${at(keyNode)}: a slug names one file, and '${where}' is a glob; give the file's path.`,
          );
        slugLines.push(`${where}: ${value}`);
      } else if (name === "exclude") {
        if (typeof value !== "boolean")
          throw new ConfigFileError(`${at(field.value as Node)}: 'exclude' must be true or false.`);
        if (value && shaped)
          throw new ConfigFileError(`${at(keyNode)}: '${where}' is excluded, so it cannot be shaped too.`);
        if (value) excluded.push(where);
      } else {
        throw new ConfigFileError(
          `${at(field.key as Node)}: ${unknownName(`field '${name}' of a spec entry`, name, SPEC_FIELDS, "fields")}`,
        );
      }
    }
  }
}
