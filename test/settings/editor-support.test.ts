/**
 * What editors need to check gitbook-openapi.yaml (docs/editor-support.md): the schema at a raw address
 * that is also its `$id`, the SchemaStore catalog entry prepared in docs/, and a schema that editors
 * implementing JSON Schema draft-07 (the YAML language server's) read whole.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_SCHEMA_FILE, CONFIG_SCHEMA_URL } from "../../scripts/settings-table.ts";
import { DEFAULT_CONFIG_FILES, parseConfigFile } from "../../src/settings/config-file.ts";

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
const schema = JSON.parse(read(CONFIG_SCHEMA_FILE)) as Record<string, unknown>;
const repository = (JSON.parse(read("package.json")) as { repository: { url: string } }).repository.url;

/** Every keyword of JSON Schema draft-07 (core and validation) and the annotations editors show. */
const DRAFT_07 = new Set(
  [
    "$schema $id $ref $comment definitions title description default examples readOnly writeOnly",
    "type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength",
    "pattern format items additionalItems maxItems minItems uniqueItems contains maxProperties",
    "minProperties required properties patternProperties additionalProperties dependencies",
    "propertyNames if then else allOf anyOf oneOf not contentMediaType contentEncoding",
  ].flatMap((line) => line.split(" ")),
);

/** The keywords of a schema and of its subschemas (the names under `properties` are not keywords). */
function keywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) keywords(item, found);
  else if (node !== null && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      found.add(key);
      if (key === "properties" || key === "patternProperties" || key === "definitions")
        for (const sub of Object.values(value as object)) keywords(sub, found);
      else if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples")
        keywords(value, found);
    }
  return found;
}

describe("editor support for the configuration file", () => {
  it("the schema's $id is the raw file on the repository's default branch, where editors fetch it", () => {
    const ownerName = /github\.com\/([^/]+\/[^/.]+)(\.git)?$/.exec(repository)?.[1];
    expect(ownerName).toBe("gitbook-openapi/gitbook-openapi");
    expect(CONFIG_SCHEMA_URL).toBe(
      `https://raw.githubusercontent.com/${ownerName}/main/schema/config.schema.json`,
    );
    expect(schema.$id).toBe(CONFIG_SCHEMA_URL);
  });

  it("the SchemaStore catalog entry names the file patterns the tool reads and the schema's address", () => {
    const entry = JSON.parse(read("docs/schemastore-catalog-entry.json")) as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(["name", "description", "fileMatch", "url"]);
    expect(entry.name).toBe("gitbook-openapi");
    expect(entry.description).toEqual(expect.stringMatching(/\S/));
    expect(entry.fileMatch).toEqual([...DEFAULT_CONFIG_FILES]);
    expect(entry.url).toBe(schema.$id);
  });

  it("docs/editor-support.md gives the yaml-language-server line with the schema's address", () => {
    const guide = read("docs/editor-support.md");
    expect(guide).toContain(`# yaml-language-server: $schema=${CONFIG_SCHEMA_URL}\n`);
    expect(guide).toContain("(schemastore-catalog-entry.json)");
  });

  it("docs/editor-support.md shows the message a mistyped key gets, as the reader words it", () => {
    const typo = () => parseConfigFile("organization: acme\nslug-prefx: x\n", "gitbook-openapi.yaml");
    expect(typo).toThrow("did you mean 'slug-prefix'?");
    const message = (() => {
      try {
        typo();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(read("docs/editor-support.md")).toContain(`\n${message}\n`);
  });

  it("uses only keywords JSON Schema draft-07 knows, so draft-07 editors check all of it", () => {
    const used = keywords(schema);
    expect(used.has("additionalProperties")).toBe(true);
    expect([...used].filter((keyword) => !DRAFT_07.has(keyword))).toEqual([]);
  });
});
