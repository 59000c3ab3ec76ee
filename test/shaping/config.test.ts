import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseConfigFile } from "../../src/settings/config-file.ts";
import { readConfig } from "../../src/settings/inputs.ts";
import { SHAPING_INPUT } from "../../src/settings/shaping-config.ts";

const EXAMPLE = `slug-prefix: acme
specs:
  api/openapi.yaml:
    slug: payments
    overlays: overlays/gitbook.yaml
    audiences:
      public: { slug: payments, remove-internal: true, overlays: [overlays/public.yaml] }
      internal:
  api/ledger.yaml: { remove-internal: true }
  api/drafts/**: { exclude: true }
`;

describe("shaping in the configuration file", () => {
  it("reaches the run's settings: overlays, remove-internal and audiences per file, in order", () => {
    const file = parseConfigFile(EXAMPLE, "gitbook-openapi.yaml");
    const config = readConfig((name) => (name === "mode" ? "check" : (file.values.get(name) ?? "")));
    expect(config.shaping).toEqual(
      new Map([
        [
          "api/openapi.yaml",
          {
            overlays: ["overlays/gitbook.yaml"],
            removeInternal: false,
            audiences: [
              { name: "public", slug: "payments", overlays: ["overlays/public.yaml"], removeInternal: true },
              { name: "internal", overlays: [], removeInternal: false },
            ],
          },
        ],
        ["api/ledger.yaml", { overlays: [], removeInternal: true, audiences: [] }],
      ]),
    );
    expect(config.slugMapping.get("api/openapi.yaml")).toBe("payments");
    expect(config.exclude).toEqual(["api/drafts/**"]);
  });

  it("is declared in the JSON Schema editors read (schema/config.schema.json)", () => {
    const schema = JSON.parse(
      readFileSync(new URL("../../schema/config.schema.json", import.meta.url), "utf8"),
    );
    // A CommonJS module: its class is the module itself or its `default`.
    type Ajv = new (
      options: object,
    ) => { compile(schema: object): { (data: unknown): boolean; errors?: unknown } };
    const Ajv2020 = ((Ajv2020Module as unknown as { default?: Ajv }).default ??
      Ajv2020Module) as unknown as Ajv;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(load(EXAMPLE)), JSON.stringify(validate.errors)).toBe(true);
    const wrong = load(EXAMPLE.replace("remove-internal: true }", "remove-internal: yes-please }"));
    expect(validate(wrong)).toBe(false);
    expect(validate(load(EXAMPLE.replace("internal:\n", "Internal Staff: {}\n")))).toBe(false);
  });

  it("nothing is carried when no entry shapes", () => {
    const file = parseConfigFile("specs:\n  a.yaml: { slug: a }\n", "c.yaml");
    expect(file.values.has(SHAPING_INPUT)).toBe(false);
  });

  const cases: Array<[string, string, string]> = [
    [
      "a glob",
      "specs:\n  api/*.yaml: { remove-internal: true }\n",
      "c.yaml:2:3: overlays, remove-internal and audiences shape one file, and 'api/*.yaml' is a glob",
    ],
    [
      "excluded and shaped",
      "specs:\n  a.yaml: { exclude: true, remove-internal: true }\n",
      "c.yaml:2:3: 'a.yaml' is excluded, so it cannot be shaped too.",
    ],
    [
      "remove-internal not a boolean",
      "specs:\n  a.yaml: { remove-internal: yes please }\n",
      "c.yaml:2:30: 'remove-internal' must be true or false.",
    ],
    [
      "an overlay outside the workspace",
      "specs:\n  a.yaml:\n    overlays: [../o.yaml]\n",
      "c.yaml:3:16: '../o.yaml': an overlay's path is relative to the workspace and stays inside it.",
    ],
    [
      "an overlay path with a line break",
      'specs:\n  a.yaml:\n    overlays: ["o\\n::error::x.yaml"]\n',
      `c.yaml:3:16: "o\\n::error::x.yaml": an overlay's path has a control character (a line break?)`,
    ],
    [
      "an empty overlay list",
      "specs:\n  a.yaml:\n    overlays: []\n",
      "c.yaml:3:15: 'overlays' lists at least one overlay file.",
    ],
    [
      "no audiences",
      "specs:\n  a.yaml:\n    audiences: {}\n",
      "c.yaml:3:16: 'audiences' maps each audience's name to its entry",
    ],
    [
      "an audience's name",
      "specs:\n  a.yaml:\n    audiences:\n      Public: {}\n",
      "c.yaml:4:7: an audience's name is lowercase letters and digits",
    ],
    [
      "an audience's slug",
      "specs:\n  a.yaml:\n    audiences:\n      public: { slug: Pay_Ments }\n",
      "c.yaml:4:23: the slug 'Pay_Ments' of audience 'public' cannot be used: it contains uppercase letters",
    ],
    [
      "an audience's unknown field",
      "specs:\n  a.yaml:\n    audiences:\n      public: { overlay: o.yaml }\n",
      "c.yaml:4:17: unknown field 'overlay' of the audience 'public'; did you mean 'overlays'?",
    ],
    [
      "an audience's unknown field like none",
      "specs:\n  a.yaml:\n    audiences:\n      public: { title: o.yaml }\n",
      "c.yaml:4:17: unknown field 'title' of the audience 'public'; the fields are: slug, overlays, remove-internal.",
    ],
    [
      "an unknown entry field",
      "specs:\n  a.yaml: { overlay: o.yaml }\n",
      "c.yaml:2:13: unknown field 'overlay' of a spec entry; did you mean 'overlays'?",
    ],
    [
      "an unknown entry field like none",
      "specs:\n  a.yaml: { title: o.yaml }\n",
      "c.yaml:2:13: unknown field 'title' of a spec entry; the fields are: slug, exclude, overlays, remove-internal, audiences.",
    ],
  ];
  for (const [name, text, message] of cases) {
    it(`refuses ${name}, at its line and column`, () => {
      expect(() => parseConfigFile(text, "c.yaml")).toThrow(message);
    });
  }
});
