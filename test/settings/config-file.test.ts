import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { configSchema } from "../../scripts/settings-table.ts";
import { ConfigFileError, parseConfigFile, readConfigFile } from "../../src/settings/config-file.ts";

const parse = (text: string) => parseConfigFile(text, "gitbook-openapi.yaml");
const problem = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return (error as Error).message;
  }
  throw new Error("no error");
};

const EXAMPLE = `# The settings, by the names of the Action's inputs
organization: acme
slug-prefix: payments
files:
  - "api/**/*.yaml"
timeout: 900
fail-on-breaking: true
breaking-allowed: [listPets, "DELETE /pets/{id}"]
slugs:
  api/legacy.yaml: legacy-api
specs:
  api/openapi.yaml:
    slug: payments-api
  api/drafts/**:
    exclude: true
`;

describe("the configuration file", () => {
  it("gives each setting as its input's text, and turns spec entries into slugs and exclusions", () => {
    const { values } = parse(EXAMPLE);
    expect(Object.fromEntries(values)).toEqual({
      organization: "acme",
      "slug-prefix": "payments",
      files: "api/**/*.yaml",
      timeout: "900",
      "fail-on-breaking": "true",
      "breaking-allowed": "listPets\nDELETE /pets/{id}",
      slugs: "api/legacy.yaml: legacy-api\napi/openapi.yaml: payments-api",
      exclude: "api/drafts/**",
    });
  });

  it("says what is wrong at its file:line:column", () => {
    expect(problem("organization: acme\nslug-prefx: x\n")).toBe(
      "gitbook-openapi.yaml:2:1: unknown setting 'slug-prefx'; did you mean 'slug-prefix'?",
    );
    expect(problem("colour: blue\n")).toMatch(
      /^gitbook-openapi\.yaml:1:1: unknown setting 'colour'; the settings are: organization, .*, specs\.$/,
    );
    expect(problem("timeout: soon\n")).toBe("gitbook-openapi.yaml:1:10: 'timeout' must be a whole number.");
    expect(problem("wait: 'yes'\n")).toBe("gitbook-openapi.yaml:1:7: 'wait' must be true or false.");
    expect(problem("files: [1]\n")).toBe("gitbook-openapi.yaml:1:9: each item of 'files' must be a text.");
    expect(problem("token: abc\n")).toMatch(
      /^gitbook-openapi\.yaml:1:1: 'token' is a secret and never belongs in a committed file/,
    );
    expect(problem("base-commit: abc\n")).toMatch(
      /^gitbook-openapi\.yaml:1:1: 'base-commit' is given per run/,
    );
    expect(problem("specs:\n  api/*.yaml: {slug: x}\n")).toMatch(
      /^gitbook-openapi\.yaml:2:3: a slug names one file/,
    );
    expect(problem("specs:\n  a.yaml: {title: x}\n")).toMatch(
      /^gitbook-openapi\.yaml:2:12: unknown field 'title'/,
    );
    expect(problem("organization: [\n")).toMatch(/^gitbook-openapi\.yaml:\d+:\d+: /);
    expect(problem("a: 1\na: 2\n")).toMatch(/^gitbook-openapi\.yaml:2:1: /);
    expect(problem("- a\n")).toBe(
      "gitbook-openapi.yaml:1:1: the configuration must be a mapping of settings.",
    );
  });

  it("is looked for at the workspace's root; a named file that is missing is an error", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-config-"));
    try {
      expect(readConfigFile(workspace, undefined)).toBeUndefined();
      expect(() => readConfigFile(workspace, "ci/gitbook.yaml")).toThrow(
        "ci/gitbook.yaml: the configuration file does not exist",
      );
      await writeFile(path.join(workspace, "gitbook-openapi.yml"), "slug-prefix: docs\n");
      expect(readConfigFile(workspace, undefined)?.values.get("slug-prefix")).toBe("docs");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("has a JSON Schema that accepts the example and refuses what the reader refuses", () => {
    const ajv = new Ajv2020.default({ allErrors: true, strict: false });
    const validate = ajv.compile(configSchema());
    expect(validate(parseYaml(EXAMPLE))).toBe(true);
    for (const bad of ["token: x", "slug-prefx: x", "timeout: soon", "specs: {a.yaml: {title: x}}"])
      expect(validate(parseYaml(bad)), bad).toBe(false);
  });
});
