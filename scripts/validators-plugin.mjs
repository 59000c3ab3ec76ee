// An esbuild plugin: in the build, src/core/validation/validators.ts (which compiles the OpenAPI
// schemas with ajv at run time) is replaced by a module that imports, per OpenAPI version, a chunk of
// validator code generated here by ajv's standalone code generation. A run loads the chunk of the
// versions it validates, and ajv's compiler is not shipped (docs/design/validation-choice.md,
// "Validators compiled at build time"). The ajv options are the sources' own (validators.ts).
//
// The generated code holds the schema as literals, one constant per schema it compiled (the root and
// each definition a `$ref` names). Each definition's literal is rewritten as the path to the same
// object in the root, so that the errors' `schema` and `parentSchema` are the root's own objects, as
// they are when ajv compiles at run time (structure.ts tells branches apart by identity). A schema that
// is not in the root (JSON Schema's own, which the 2.0 schema refers to) stays a literal.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
const VERSIONS = ["2.0", "3.0", "3.1", "3.2"];
const SOURCE = path.join(root, "src", "core", "validation", "validators.ts");
const NAMESPACE = "openapi-validator";

/** The standalone module of one version: `validate` and `schema` as named exports. */
export function generateValidator(version) {
  const standalone = require("ajv/dist/standalone").default;
  const draft04 = version === "2.0" || version === "3.0";
  const Ajv = draft04 ? require("ajv-draft-04").default : require("ajv/dist/2020").default;
  const addFormats = require("ajv-formats").default;
  const schema = require(`@seriousme/openapi-schema-validator/schemas/v${version}/schema.json`);
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    verbose: true,
    code: { source: true, esm: true },
  });
  addFormats(ajv);
  ajv.addFormat("media-range", true);
  let code = standalone(ajv, ajv.compile(schema));

  // Where each object of the root schema is, by its JSON text (the form the literals are written in).
  const paths = new Map();
  const walk = (node, at) => {
    if (typeof node !== "object" || node === null) return;
    const text = JSON.stringify(node);
    if (!paths.has(text)) paths.set(text, at);
    for (const [key, value] of Object.entries(node)) walk(value, `${at}[${JSON.stringify(key)}]`);
  };
  const rootName = /const (schema\d+) = /.exec(code)?.[1];
  if (rootName === undefined || !code.includes(`const ${rootName} = ${JSON.stringify(schema)};`)) {
    throw new Error(`ajv's standalone code for OpenAPI ${version} does not start with its root schema`);
  }
  walk(schema, rootName);
  code = code.replace(
    /const (schema\d+) = (\{.*?\});(?=const |function |export |$)/gs,
    (whole, name, text) => {
      if (name === rootName) return whole;
      const at = paths.get(text);
      return at === undefined ? whole : `const ${name} = ${at};`;
    },
  );
  return `${code}\nexport { ${rootName} as schema };\n`;
}

/** The module that stands for validators.ts in the build. */
function builtValidators() {
  const cases = VERSIONS.map(
    (version) =>
      `    case ${JSON.stringify(version)}: module = await import(${JSON.stringify(`${NAMESPACE}:${version}`)}); break;`,
  ).join("\n");
  return `const loaded = new Map();
export async function loadValidator(version) {
  if (loaded.has(version)) return;
  let module;
  switch (version) {
${cases}
    default: throw new Error("No validator for OpenAPI " + version);
  }
  loaded.set(version, { validate: module.validate, schema: module.schema });
}
export function validatorFor(version) {
  const validator = loaded.get(version);
  if (validator === undefined) throw new Error("The OpenAPI " + version + " validator is not loaded: await loadValidator() first.");
  return validator;
}
`;
}

export const validatorsPlugin = {
  name: "openapi-validators",
  setup(build) {
    build.onLoad({ filter: /validators\.ts$/ }, (args) =>
      args.path === SOURCE
        ? { contents: builtValidators(), loader: "js", resolveDir: path.dirname(SOURCE) }
        : undefined,
    );
    build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({
      path: args.path.slice(NAMESPACE.length + 1),
      namespace: NAMESPACE,
    }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: generateValidator(args.path),
      loader: "js",
      resolveDir: root,
    }));
  },
};
