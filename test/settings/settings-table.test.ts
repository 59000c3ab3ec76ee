import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  actionInputs,
  CONFIG_SCHEMA_FILE,
  CONFIGURATION_PAGE,
  configSchema,
  FLAGS_MARKERS,
  flagsTable,
  INPUTS_MARKERS,
  inputsTable,
  README,
  SHORT_MARKERS,
  shortTable,
  withInputs,
  withShortTable,
  withTables,
} from "../../scripts/settings-table.ts";
import { runCli } from "../../src/hosts/cli/program.ts";
import { readConfig } from "../../src/settings/inputs.ts";
import { SETTINGS } from "../../src/settings/settings-table.ts";

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

describe("the settings table is the one declaration of every setting", () => {
  it("action.yml's inputs are the table's (run npx node scripts/settings-table.ts --write after changing it)", () => {
    const actionYml = read("action.yml");
    expect(actionYml).toBe(withInputs(actionYml));
    expect(actionYml).toContain(actionInputs());
  });

  it("the configuration guide's inputs and flags tables are the table's", () => {
    const page = read(CONFIGURATION_PAGE);
    expect(page).toBe(withTables(page));
    expect(page).toContain(`${INPUTS_MARKERS.START}\n${inputsTable()}\n${INPUTS_MARKERS.END}`);
    expect(page).toContain(`${FLAGS_MARKERS.START}\n${flagsTable()}\n${FLAGS_MARKERS.END}`);
  });

  it("the README's short table names every setting, as the table declares it", () => {
    const readme = read(README);
    expect(readme).toBe(withShortTable(readme));
    expect(readme).toContain(`${SHORT_MARKERS.START}\n${shortTable()}\n${SHORT_MARKERS.END}`);
    for (const setting of SETTINGS) expect(shortTable()).toContain(setting.name);
  });

  it("the configuration file's JSON Schema is the table's", () => {
    expect(JSON.parse(read(CONFIG_SCHEMA_FILE))).toEqual(configSchema());
  });

  it("`gitbook-openapi sync --help` shows every setting's flag and variable, and its default", async () => {
    let help = "";
    const code = await runCli(["sync", "--help"], {
      env: {},
      cwd: process.cwd(),
      stdout: { write: (text: string) => (help += text) },
      stderr: { write: (text: string) => (help += text) },
    });
    expect(code).toBe(0);
    for (const setting of SETTINGS) {
      if (setting.cli === undefined) continue;
      expect(help).toContain(setting.cli.flag);
      expect(help).toContain(setting.cli.env);
      if (setting.cli.flag.includes("<") && setting.default !== "" && !setting.cli.choices)
        expect(help).toContain(`(default: ${setting.default})`);
    }
  });

  it("the Action reads the table's defaults", () => {
    const config = readConfig((name) =>
      name === "token" ? "a-token" : name === "organization" ? "org" : "",
    );
    const byName = new Map(SETTINGS.map((s) => [s.name, s.default]));
    expect(config.mode).toBe(byName.get("mode"));
    expect(config.source).toBe(byName.get("source"));
    expect(String(config.wait)).toBe(byName.get("wait"));
    expect(String(config.timeoutSeconds)).toBe(byName.get("timeout"));
    expect(String(config.concurrency)).toBe(byName.get("concurrency"));
    expect(config.apiUrl).toBe(byName.get("api-url"));
    expect(String(config.comment)).toBe(byName.get("comment"));
    expect(config.commentKey).toBe(byName.get("comment-key"));
    expect(String(config.force)).toBe(byName.get("force"));
    expect(String(config.prune)).toBe(byName.get("prune"));
    expect(String(config.pruneLimit)).toBe(byName.get("prune-limit"));
    expect(String(config.failOnBreaking)).toBe(byName.get("fail-on-breaking"));
  });
});
