/**
 * Writes what the settings table (`src/settings/settings-table.ts`) declares into the files that show it:
 * action.yml's `inputs:`, the configuration guide's tables of the Action's inputs and of the CLI's flags
 * and variables (docs/configuration.md), the README's short table of every setting, and the
 * configuration file's JSON Schema (`schema/config.schema.json`, for editors).
 * Without `--write` it prints them; `test/settings/settings-table.test.ts` fails when a file differs from
 * what this writes.
 *
 *   npx node scripts/settings-table.ts [--write]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SETTINGS, type SettingKind } from "../src/settings/settings-table.ts";

export const INPUTS_MARKERS = {
  START: "<!-- inputs-table:start (npx node scripts/settings-table.ts --write) -->",
  END: "<!-- inputs-table:end -->",
} as const;
export const FLAGS_MARKERS = {
  START: "<!-- flags-table:start (npx node scripts/settings-table.ts --write) -->",
  END: "<!-- flags-table:end -->",
} as const;

export const SHORT_MARKERS = {
  START: "<!-- settings-short:start (npx node scripts/settings-table.ts --write) -->",
  END: "<!-- settings-short:end -->",
} as const;

/** The page that holds the full tables, and the README that holds the short one. */
export const CONFIGURATION_PAGE = "docs/configuration.md";
export const README = "README.md";

const cell = (text: string) => text.replaceAll("|", "\\|");

/**
 * action.yml's `inputs:` block. An input's default is applied by the action, not the runner (which would
 * pass it as if the workflow had set it, hiding the configuration file): action.yml says it in the
 * description, and writes a default only for what the runner must supply (`github-token`).
 */
export function actionInputs(): string {
  const lines = ["inputs:"];
  for (const setting of SETTINGS.filter((s) => s.action)) {
    const shown = setting.default === "" || setting.runnerDefault ? "" : ` Default: \`${setting.default}\`.`;
    lines.push(
      `  ${setting.name}:`,
      `    description: ${JSON.stringify(`${setting.doc}${shown}`)}`,
      "    required: false",
      `    default: ${JSON.stringify(setting.runnerDefault ? setting.default : "")}`,
    );
  }
  return lines.join("\n");
}

/** The README's short table: every setting's input, flag, variable and default, one row each. */
export function shortTable(): string {
  const rows = ["| Setting (Action input) | CLI flag | Variable | Default |", "| --- | --- | --- | --- |"];
  for (const setting of SETTINGS) {
    const input = setting.action ? `\`${setting.name}\`` : `${setting.name} (CLI only)`;
    const flag = setting.cli ? `\`${cell(setting.cli.flag.replace(/ [<[].*$/, ""))}\`` : "";
    const env = setting.cli ? `\`${setting.cli.env}\`` : "";
    const shown = setting.default === "" ? "" : `\`${cell(setting.default)}\``;
    rows.push(`| ${input} | ${flag} | ${env} | ${shown} |`);
  }
  return rows.join("\n");
}

/** The configuration guide's table of the Action's inputs. */
export function inputsTable(): string {
  const rows = ["| Input | Default | What it does |", "| --- | --- | --- |"];
  for (const setting of SETTINGS.filter((s) => s.action)) {
    const shown = setting.default === "" ? "" : `\`${cell(setting.default)}\``;
    rows.push(`| \`${setting.name}\` | ${shown} | ${cell(setting.doc)} |`);
  }
  return rows.join("\n");
}

/** The configuration guide's table of the CLI's setting flags and variables. */
export function flagsTable(): string {
  const rows = ["| Flag | Variable | Action input | Default |", "| --- | --- | --- | --- |"];
  for (const setting of SETTINGS) {
    const cli = setting.cli;
    if (cli === undefined) continue;
    const flag = `\`${cell(cli.flag)}\`${cli.repeatable ? " (repeatable)" : ""}`;
    const env = `\`${cli.env}\`${cli.repeatable ? " (one a line)" : ""}`;
    const input = setting.action ? `\`${setting.name}\`` : "";
    const shown = setting.default === "" ? "" : `\`${cell(setting.default)}\``;
    rows.push(`| ${flag} | ${env} | ${input} | ${shown} |`);
  }
  return rows.join("\n");
}

const KIND_SCHEMAS: Record<SettingKind, object> = {
  text: { type: "string" },
  lines: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
  boolean: { type: "boolean" },
  integer: { type: "integer" },
  slugs: { type: "object", additionalProperties: { type: "string" } },
};

/** The shaping fields of a spec entry and of an audience (src/settings/shaping-config.ts). */
const SHAPING_SCHEMA = {
  overlays: {
    description:
      "OpenAPI Overlay files (1.0 or 1.1), relative to the workspace, applied in order to the bundled document.",
    oneOf: [{ type: "string" }, { type: "array", minItems: 1, items: { type: "string" } }],
  },
  "remove-internal": {
    type: "boolean",
    description:
      "Remove everything marked `x-internal: true` (after the overlays), then what no longer has a use: unreferenced components, emptied paths and tags.",
  },
};

/** The configuration file's JSON Schema: every setting a file may hold, and `specs`. */
export function configSchema(): object {
  const properties: Record<string, object> = {};
  for (const setting of SETTINGS) {
    if (setting.secret || setting.perRun) continue;
    const choices = setting.cli?.choices?.filter((choice) => choice !== "cleanup");
    properties[setting.name] = {
      description: setting.doc,
      ...(choices ? { enum: choices } : KIND_SCHEMAS[setting.kind]),
      ...(setting.default === ""
        ? {}
        : { default: setting.kind === "text" ? setting.default : JSON.parse(setting.default) }),
    };
  }
  properties.specs = {
    description:
      "Per-spec entries, keyed by a file's path (or, for `exclude`, a glob): its slug, exclusion, overlays, remove-internal and audiences.",
    type: "object",
    additionalProperties: {
      type: "object",
      additionalProperties: false,
      properties: {
        slug: {
          type: "string",
          description:
            "Publish this file under this slug, as written (with audiences: the start of their derived slugs).",
        },
        exclude: { type: "boolean", description: "Never publish what this path or glob matches." },
        ...SHAPING_SCHEMA,
        audiences: {
          description:
            "Publish this file once per audience, each under its own slug and shaped its own way (after the entry's own overlays and remove-internal).",
          type: "object",
          minProperties: 1,
          propertyNames: { pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" },
          additionalProperties: {
            type: ["object", "null"],
            additionalProperties: false,
            properties: {
              slug: {
                type: "string",
                pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
                maxLength: 100,
                description:
                  "This audience's slug, as written. Default: the file's slug, '-', the audience's name.",
              },
              ...SHAPING_SCHEMA,
            },
          },
        },
      },
    },
  };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: CONFIG_SCHEMA_URL,
    title: "gitbook-openapi configuration (gitbook-openapi.yaml)",
    description:
      "Read by the GitHub Action and the gitbook-openapi CLI from the workspace's root (or the config setting). Inputs, flags and variables win over it. Generated from src/settings/settings-table.ts.",
    type: "object",
    additionalProperties: false,
    properties,
  };
}

export const CONFIG_SCHEMA_FILE = "schema/config.schema.json";

/**
 * Where editors fetch the schema (its `$id`): the file on the default branch, served raw. Named in
 * docs/editor-support.md and in the SchemaStore catalog entry (docs/schemastore-catalog-entry.json).
 */
export const CONFIG_SCHEMA_URL = `https://raw.githubusercontent.com/gitbook-openapi/gitbook-openapi/main/${CONFIG_SCHEMA_FILE}`;

function between(text: string, start: string, end: string, body: string, file: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} markers.`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

/** action.yml with its `inputs:` block replaced (up to `outputs:`). */
export function withInputs(actionYml: string): string {
  const from = actionYml.indexOf("\ninputs:\n");
  const to = actionYml.indexOf("\noutputs:\n");
  if (from < 0 || to < from) throw new Error("action.yml has no inputs: … outputs: blocks.");
  return `${actionYml.slice(0, from + 1)}${actionInputs()}\n${actionYml.slice(to)}`;
}

/** The configuration guide with its inputs and flags tables replaced. */
export function withTables(page: string): string {
  const inputs = between(page, INPUTS_MARKERS.START, INPUTS_MARKERS.END, inputsTable(), CONFIGURATION_PAGE);
  return between(inputs, FLAGS_MARKERS.START, FLAGS_MARKERS.END, flagsTable(), CONFIGURATION_PAGE);
}

/** The README with its short settings table replaced. */
export function withShortTable(readme: string): string {
  return between(readme, SHORT_MARKERS.START, SHORT_MARKERS.END, shortTable(), README);
}

function main(): void {
  if (!process.argv.includes("--write")) {
    console.log(`${actionInputs()}\n\n${inputsTable()}\n\n${flagsTable()}\n\n${shortTable()}`);
    return;
  }
  writeFileSync("action.yml", withInputs(readFileSync("action.yml", "utf8")));
  writeFileSync(CONFIGURATION_PAGE, withTables(readFileSync(CONFIGURATION_PAGE, "utf8")));
  writeFileSync(README, withShortTable(readFileSync(README, "utf8")));
  writeFileSync(CONFIG_SCHEMA_FILE, `${JSON.stringify(configSchema(), null, 2)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
