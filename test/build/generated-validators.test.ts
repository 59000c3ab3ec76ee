/**
 * The validators the build generates (scripts/validators-plugin.mjs: ajv's standalone code, a module per
 * OpenAPI version) say what ajv compiling at run time says (the sources, src/core/validation/validators.ts):
 * the same raw errors, and the same issues once structure.ts has summarized them — on documents broken
 * at random in each version and on the cases whose messages depend on the schema's own objects (a
 * branch told apart by its discriminating field, `$ref`s into the root followed).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { validatorsPlugin } from "../../scripts/validators-plugin.mjs";
import * as sources from "../../src/core/validation/structure.ts";
import { validatorFor } from "../../src/core/validation/validators.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
type Structure = typeof sources;
type Validators = { validatorFor: typeof validatorFor };
let built: Structure;
let builtValidators: Validators;

beforeAll(async () => {
  // structure.ts and validators.ts as the build makes them, one file each, ajv's runtime bundled in.
  const outdir = path.join(root, ".scratch", "generated-validators-test");
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      structure: "src/core/validation/structure.ts",
      validators: "src/core/validation/validators.ts",
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    logLevel: "silent",
    plugins: [validatorsPlugin],
  });
  built = (await import(pathToFileURL(path.join(outdir, "structure.mjs")).href)) as Structure;
  builtValidators = (await import(pathToFileURL(path.join(outdir, "validators.mjs")).href)) as Validators;
  await sources.prepareValidator();
  await built.prepareValidator();
}, 60_000);

const VERSIONS = { "2.0": "2.0", "3.0.3": "3.0", "3.1.0": "3.1", "3.2.0": "3.2" } as const;
type Declared = keyof typeof VERSIONS;

const BASES: Record<Declared, Record<string, unknown>> = {
  "2.0": {
    swagger: "2.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, type: "string" }],
          responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } } },
        },
      },
    },
    definitions: { Pet: { type: "object", properties: { name: { type: "string", format: "uri" } } } },
  },
  "3.0.3": {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    servers: [{ url: "https://example.com" }],
    paths: {
      "/pets/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
          },
        },
      },
    },
    components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
  },
  "3.1.0": {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1", license: { name: "MIT", identifier: "MIT" } },
    paths: {
      "/pets/{id}": {
        post: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "201": { description: "created" } },
        },
      },
    },
    webhooks: {},
  },
  "3.2.0": {
    openapi: "3.2.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": {
        get: {
          parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  },
};

/** What ajv said, without the verbose parts (`schema`, `parentSchema`, `data`), which are compared apart. */
function rawErrors(version: "2.0" | "3.0" | "3.1" | "3.2", document: unknown, validators: Validators) {
  const { validate, schema } = validators.validatorFor(version);
  validate(document);
  return (validate.errors ?? []).map(({ schema: s, parentSchema, data, ...rest }) => ({
    ...rest,
    // The verbose parts are the root schema's own objects (and the document's), found by the same path.
    schemaInRoot: pathIn(schema, s),
    parentInRoot: pathIn(schema, parentSchema),
    data: data === document ? "<document>" : JSON.stringify(data),
  }));
}

/** Where an object sits in the schema (first found, by identity), or its JSON when it is not there. */
function pathIn(schema: unknown, target: unknown): string {
  if (target === null || typeof target !== "object") return `value ${JSON.stringify(target)}`;
  const seen = new Set<unknown>();
  const walk = (node: unknown, at: string): string | undefined => {
    if (node === target) return at;
    if (node === null || typeof node !== "object" || seen.has(node)) return undefined;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const found = walk(value, `${at}/${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(schema, "#") ?? `outside ${JSON.stringify(target)}`;
}

function same(declared: Declared, document: unknown): void {
  const version = VERSIONS[declared];
  expect(rawErrors(version, document, builtValidators)).toEqual(
    rawErrors(version, document, { validatorFor }),
  );
  expect(built.structuralIssues(document, declared)).toEqual(sources.structuralIssues(document, declared));
}

function keyPaths(node: unknown, prefix: string[] = []): string[][] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [];
  return [prefix, ...Object.entries(node).flatMap(([key, value]) => keyPaths(value, [...prefix, key]))];
}

function setAt(document: unknown, at: readonly string[], key: string, value: unknown): unknown {
  const copy = structuredClone(document) as Record<string, unknown>;
  let node = copy;
  for (const step of at) node = node[step] as Record<string, unknown>;
  node[key] = value;
  return copy;
}

describe("the validators generated at build time", () => {
  it("find a valid document of each version valid", () => {
    for (const declared of Object.keys(BASES) as Declared[]) {
      expect(built.structuralIssues(BASES[declared], declared)).toEqual([]);
      same(declared, BASES[declared]);
    }
  });

  it("say what run-time compiled ones say on the cases whose messages read the schema's objects", () => {
    const cases: [Declared, unknown, RegExp][] = [
      // A path parameter without `required: true`: the branch `in: path` was meant for speaks alone.
      [
        "3.0.3",
        setAt(BASES["3.0.3"], ["paths", "/pets/{id}", "get", "parameters"], "0", {
          name: "id",
          in: "path",
          schema: { type: "string" },
        }),
        /required: true/,
      ],
      [
        "2.0",
        setAt(BASES["2.0"], ["definitions"], "Pet", { anyOf: [{ type: "string" }] }),
        /Swagger 2\.0 schema/,
      ],
      [
        "3.1.0",
        setAt(BASES["3.1.0"], ["paths", "/pets/{id}", "post"], "responses", { "2xx": {} }),
        /capitals/,
      ],
      [
        "3.0.3",
        setAt(BASES["3.0.3"], [], "paths", { "/pets": { get: { responses: "not an object" } } }),
        /mapping/,
      ],
      [
        "3.2.0",
        setAt(BASES["3.2.0"], ["paths", "/pets", "get"], "parameters", [{ name: "q", in: "nowhere" }]),
        /./,
      ],
    ];
    for (const [declared, document, said] of cases) {
      const issues = built.structuralIssues(document, declared) ?? [];
      expect(issues.map((issue) => issue.message).join("\n")).toMatch(said);
      same(declared, document);
    }
  });

  it("say what run-time compiled ones say on documents broken at random", () => {
    const mutation = fc.constantFrom(...(Object.keys(BASES) as Declared[])).chain((declared) =>
      fc.record({
        declared: fc.constant(declared),
        at: fc.constantFrom(...keyPaths(BASES[declared])),
        key: fc.oneof(
          fc.constantFrom(
            "responses",
            "type",
            "$ref",
            "in",
            "required",
            "schema",
            "content",
            "200",
            "2xx",
            "url",
          ),
          fc.string({ maxLength: 6 }),
        ),
        value: fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.constantFrom(
            "not an object",
            "ftp://x y",
            42,
            [],
            {},
            null,
            { $ref: 7 },
            { in: "path", name: "x" },
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(mutation, ({ declared, at, key, value }) => {
        same(declared, setAt(BASES[declared], at, key, value));
      }),
      { numRuns: 200 },
    );
  });
});
