/**
 * Writes what the settings table (`src/config/settings-table.ts`) declares into the files that show it:
 * action.yml's `inputs:` and the README's tables of the Action's inputs and of the CLI's flags and
 * variables. Without `--write` it prints them; `test/config/settings-table.test.ts` fails when a file
 * differs from what this writes.
 *
 *   npx node scripts/settings-table.ts [--write]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SETTINGS } from "../src/config/settings-table.ts";

export const INPUTS_MARKERS = {
  START: "<!-- inputs-table:start (npx node scripts/settings-table.ts --write) -->",
  END: "<!-- inputs-table:end -->",
} as const;
export const FLAGS_MARKERS = {
  START: "<!-- flags-table:start (npx node scripts/settings-table.ts --write) -->",
  END: "<!-- flags-table:end -->",
} as const;

const cell = (text: string) => text.replaceAll("|", "\\|");

/** action.yml's `inputs:` block. */
export function actionInputs(): string {
  const lines = ["inputs:"];
  for (const setting of SETTINGS.filter((s) => s.action)) {
    lines.push(
      `  ${setting.name}:`,
      `    description: ${JSON.stringify(setting.doc)}`,
      "    required: false",
      `    default: ${JSON.stringify(setting.default)}`,
    );
  }
  return lines.join("\n");
}

/** The README's table of the Action's inputs. */
export function inputsTable(): string {
  const rows = ["| Input | Default | What it does |", "| --- | --- | --- |"];
  for (const setting of SETTINGS.filter((s) => s.action)) {
    const shown = setting.default === "" ? "" : `\`${cell(setting.default)}\``;
    rows.push(`| \`${setting.name}\` | ${shown} | ${cell(setting.doc)} |`);
  }
  return rows.join("\n");
}

/** The README's table of the CLI's setting flags and variables. */
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

export function withTables(readme: string): string {
  const inputs = between(readme, INPUTS_MARKERS.START, INPUTS_MARKERS.END, inputsTable(), "README.md");
  return between(inputs, FLAGS_MARKERS.START, FLAGS_MARKERS.END, flagsTable(), "README.md");
}

function main(): void {
  if (!process.argv.includes("--write")) {
    console.log(`${actionInputs()}\n\n${inputsTable()}\n\n${flagsTable()}`);
    return;
  }
  writeFileSync("action.yml", withInputs(readFileSync("action.yml", "utf8")));
  writeFileSync("README.md", withTables(readFileSync("README.md", "utf8")));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
