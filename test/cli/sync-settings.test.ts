import path from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/hosts/cli/errors.ts";
import { longFlag } from "../../src/hosts/cli/flag-names.ts";
import { checkInputs } from "../../src/hosts/cli/input-errors.ts";
import { buildSyncSettings, createInputReader } from "../../src/hosts/cli/sync-settings.ts";
import { readConfig } from "../../src/settings/inputs.ts";
import { SETTINGS } from "../../src/settings/settings-table.ts";

const cwd = "/repo";

describe("sync flags and variables as the action's inputs", () => {
  it("maps every flag to its input", () => {
    const settings = buildSyncSettings(
      {
        organization: "acme",
        files: ["api/*.yaml", "!api/drafts/**"],
        slug: ["api/pets.yaml=pets", "api/my orders.yaml = orders"],
        slugPrefix: "team",
        source: "url",
        mode: "preview",
        wait: false,
        timeout: "120",
        concurrency: "8",
        apiUrl: "http://127.0.0.1:4010",
        workspace: "sub",
        json: true,
        junit: "reports/junit.xml",
        mergeRequest: "42",
      },
      {},
      { cwd, token: { value: "tok-123456789", setting: "--token-file" } },
    );
    expect(settings.readInput("organization")).toBe("acme");
    expect(settings.readInput("files")).toBe("api/*.yaml\n!api/drafts/**");
    expect(settings.readInput("slugs")).toBe("api/pets.yaml: pets\napi/my orders.yaml: orders");
    expect(settings.readInput("slug-prefix")).toBe("team");
    expect(settings.readInput("source")).toBe("url");
    expect(settings.readInput("mode")).toBe("preview");
    expect(settings.readInput("wait")).toBe("false");
    expect(settings.readInput("timeout")).toBe("120");
    expect(settings.readInput("concurrency")).toBe("8");
    expect(settings.readInput("api-url")).toBe("http://127.0.0.1:4010");
    expect(settings.readInput("token")).toBe("tok-123456789");
    expect(settings.readInput("comment")).toBe("");
    expect(settings.workspace).toBe(path.resolve(cwd, "sub"));
    expect(settings.json).toBe(true);
    expect(settings.junitFile).toBe(path.resolve(cwd, "reports/junit.xml"));
    expect(settings.mergeRequest).toBe(42);

    // The action's own parser accepts what the CLI hands it.
    const config = readConfig(settings.readInput);
    expect(config).toMatchObject({
      organization: { kind: "id", id: "acme" },
      files: ["api/*.yaml", "!api/drafts/**"],
      slugPrefix: "team",
      source: "url",
      mode: "preview",
      wait: false,
      timeoutSeconds: 120,
      concurrency: 8,
      apiUrl: "http://127.0.0.1:4010",
    });
    expect([...config.slugMapping]).toEqual([
      ["api/pets.yaml", "pets"],
      ["api/my orders.yaml", "orders"],
    ]);
  });

  it("reads every setting from its variable when the flag is absent; flags win", () => {
    const env = {
      GITBOOK_ORGANIZATION_DOMAIN: "@Example.com",
      GITBOOK_FILES: "a.yaml\nb.yaml\n",
      GITBOOK_SLUGS: "a.yaml=alpha\nb.yaml: beta\n# comment\n",
      GITBOOK_SLUG_PREFIX: "env-prefix",
      GITBOOK_SOURCE: "text",
      GITBOOK_MODE: "check",
      GITBOOK_WAIT: "false",
      GITBOOK_TIMEOUT: "30",
      GITBOOK_CONCURRENCY: "2",
      GITBOOK_API_URL: "https://gitbook.internal",
      GITBOOK_WORKSPACE: "/elsewhere",
      GITBOOK_JUNIT: "out.xml",
      GITBOOK_MERGE_REQUEST: "7",
    };
    const fromEnv = buildSyncSettings({}, env, { cwd });
    expect(fromEnv.readInput("organization")).toBe("");
    expect(fromEnv.readInput("organization-domain")).toBe("@Example.com");
    expect(fromEnv.readInput("files")).toBe("a.yaml\nb.yaml");
    expect(fromEnv.readInput("slugs")).toBe("a.yaml: alpha\nb.yaml: beta");
    expect(fromEnv.readInput("wait")).toBe("false");
    expect(fromEnv.readInput("timeout")).toBe("30");
    expect(fromEnv.workspace).toBe("/elsewhere");
    expect(fromEnv.junitFile).toBe(path.resolve(cwd, "out.xml"));
    expect(fromEnv.mergeRequest).toBe(7);
    expect(fromEnv.settingName("timeout")).toBe("GITBOOK_TIMEOUT");
    expect(readConfig(fromEnv.readInput).organization).toEqual({
      kind: "email-domain",
      domain: "example.com",
    });

    const flagsWin = buildSyncSettings({ timeout: "45", files: ["c.yaml"], workspace: "w" }, env, { cwd });
    expect(flagsWin.readInput("timeout")).toBe("45");
    expect(flagsWin.readInput("files")).toBe("c.yaml");
    expect(flagsWin.workspace).toBe(path.resolve(cwd, "w"));
    expect(flagsWin.settingName("timeout")).toBe("--timeout");
    expect(flagsWin.settingName("slug-prefix")).toBe("GITBOOK_SLUG_PREFIX");
  });

  it("reads every switch and repeated flag of the settings table only when given", () => {
    const camel = (flag: string) =>
      flag.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());
    const rows = SETTINGS.filter((row) => row.cli && !row.secret && row.name !== "slugs");
    const switches = rows.filter((row) => row.kind === "boolean");
    const repeated = rows.filter((row) => row.cli?.repeatable);
    expect(switches.length).toBeGreaterThan(4);
    expect(repeated.length).toBeGreaterThan(2);
    for (const row of switches) {
      const flag = longFlag(row.cli?.flag ?? "");
      const negated = flag.startsWith("--no-");
      const key = camel(flag.replace(/^--(no-)?/, ""));
      const env = { [row.cli?.env ?? ""]: "yes" };
      // Given: the switch's own value; commander's default (the other value): the variable's.
      expect(createInputReader({ [key]: !negated }, env).readInput(row.name)).toBe(String(!negated));
      expect(createInputReader({ [key]: negated }, env).readInput(row.name)).toBe("yes");
    }
    for (const row of repeated) {
      const key = camel(longFlag(row.cli?.flag ?? "").replace(/^--/, ""));
      expect(createInputReader({ [key]: ["a", "b"] }, {}).readInput(row.name)).toBe("a\nb");
    }
  });

  it("names the flag of a setting that is not set, and the token's two sources", () => {
    const { settingName } = createInputReader({}, {});
    expect(settingName("slug-prefix")).toBe("--slug-prefix");
    expect(settingName("slugs")).toBe("--slug");
    expect(settingName("wait")).toBe("--no-wait");
    expect(settingName("api-url")).toBe("--api-url");
    expect(settingName("token")).toBe("GITBOOK_TOKEN or --token-file");
    const withToken = createInputReader({}, {}, { value: "secret-value", setting: "GITBOOK_TOKEN" });
    expect(withToken.settingName("token")).toBe("GITBOOK_TOKEN");
  });

  it("turns the action's input errors into messages that name the flag or variable", () => {
    const bad = (flags: Parameters<typeof createInputReader>[0], env = {}) => {
      const inputs = createInputReader(flags, env, { value: "tok-123456789", setting: "GITBOOK_TOKEN" });
      try {
        checkInputs(() => readConfig(inputs.readInput), inputs.settingName);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as UsageError).message;
      }
      throw new Error("expected a usage error");
    };
    expect(bad({ organization: "acme", slugPrefix: "---" })).toMatch(/^--slug-prefix: "---" has no letter/);
    expect(bad({ organization: "acme", timeout: "soon" })).toMatch(
      /^--timeout: "soon" is not a whole number/,
    );
    expect(bad({ organization: "acme" }, { GITBOOK_CONCURRENCY: "500" })).toMatch(
      /^GITBOOK_CONCURRENCY: 500 is out/,
    );
    expect(bad({ organization: "acme" }, { GITBOOK_REVIEW_HEAP_MB: "4" })).toBe(
      "GITBOOK_REVIEW_HEAP_MB: 4 is out of range; expected 8 to 65536.",
    );
    expect(bad({ organization: "acme", apiUrl: "http://example.com" })).toMatch(/^--api-url: .*plain http/);
    expect(bad({ organization: "acme", organizationDomain: "example.com" })).toBe(
      "--organization: and --organization-domain are both set; set exactly one of them (the organization id, or an email domain that resolves to it).",
    );
    expect(bad({})).toMatch(
      /^--organization: is required: set --organization to your GitBook organization id/,
    );
    // Errors that are not about inputs pass through.
    expect(() =>
      checkInputs(() => {
        throw new TypeError("boom");
      }, String),
    ).toThrow(TypeError);
  });

  it("refuses a --slug or GITBOOK_SLUGS item that is not PATH=SLUG, naming where it came from", () => {
    expect(() => createInputReader({ slug: ["api/pets.yaml"] }, {})).toThrow(
      /^--slug: "api\/pets.yaml" is not PATH=SLUG/,
    );
    expect(() => createInputReader({ slug: ["api/pets.yaml=Pets!"] }, {})).toThrow(
      /^--slug: the slug "Pets!" is not valid/,
    );
    expect(() => createInputReader({ slug: ["=pets"] }, {})).toThrow(/^--slug: "=pets" has an empty path/);
    expect(() => createInputReader({}, { GITBOOK_SLUGS: "nothing here" })).toThrow(/^GITBOOK_SLUGS: /);
  });

  it("refuses a merge request that is not a number", () => {
    expect(() => buildSyncSettings({ mergeRequest: "!42" }, {}, { cwd })).toThrow(
      /^--merge-request: "!42" is not a merge request number/,
    );
    expect(() => buildSyncSettings({}, { GITBOOK_MERGE_REQUEST: "0" }, { cwd })).toThrow(
      /^GITBOOK_MERGE_REQUEST: /,
    );
  });
});
