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
// is not in the root (JSON Schema's own, which the 2.0 schema refers to) stays a literal. The code is
// then compacted (`compact`: its error objects built by helpers, repeated strings named once), so that
// dist/ stays under its 2 MB budget.
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
  // `uri` and `uri-reference` are ajv-formats' own checks with a fast path for plain URLs and
  // fragments (src/core/validation/uri-format.ts).
  const formats = 'require("./src/core/validation/uri-format.ts")';
  const fullUri = 'require("ajv-formats/dist/formats").fullFormats.uri';
  const fullReference = ` = ${require("ajv-formats/dist/formats").fullFormats["uri-reference"]};`;
  const checksUri = version === "2.0" || version === "3.0";
  if (checksUri !== code.includes(fullUri) || (version !== "2.0") !== code.includes(fullReference)) {
    throw new Error(`ajv's standalone code for OpenAPI ${version} does not check URIs as expected`);
  }
  code = code
    .replaceAll(fullUri, `${formats}.uri`)
    .replaceAll(fullReference, ` = { test: ${formats}.uriReference };`);
  return `${compiledAtLoad(compact(code))}\nexport { ${rootName} as schema };\n`;
}

// The error objects ajv writes, one literal per place an error can arise (`allErrors`, `verbose`): most
// of the generated code. Each becomes a call of one helper, which builds the same object.
const ERROR_KEYS = [
  "instancePath",
  "schemaPath",
  "keyword",
  "params",
  "message",
  "schema",
  "parentSchema",
  "data",
];
const HELPERS = `function pushError(errors, instancePath, schemaPath, keyword, params, message, schema, parentSchema, data) {
  const error = { instancePath, schemaPath, keyword, params, message, schema, parentSchema, data };
  if (errors === null) return [error];
  errors.push(error);
  return errors;
}
function pushKeywordError(errors, instancePath, schemaPath, keyword, params, message, parentSchema, data) {
  return pushError(errors, instancePath, schemaPath, keyword, params, message, parentSchema[keyword], parentSchema, data);
}
function escapedKey(key) {
  return key.replace(/~/g, "~0").replace(/\\//g, "~1");
}
`;

/**
 * ajv's standalone code with each error literal and its push (`const errN = {…};if(vErrors === null)
 * {vErrors = [errN];}else {vErrors.push(errN);}errors++;`) written as a call of {@link HELPERS}; an
 * error's `schema` that is its `parentSchema[keyword]` is left to the helper to read.
 */
function compact(code) {
  const ts = require("typescript");
  for (const name of ["pushError", "pushKeywordError", "escapedKey"]) {
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`ajv's code already uses the name ${name}`);
  }
  const file = ts.createSourceFile("validator.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const source = (node) => code.slice(node.getStart(file), node.end);
  const squeezed = (node) => source(node).replace(/\s+/g, "");
  const edits = [];
  let literals = 0;
  const visit = (node) => {
    if (ts.isVariableStatement(node)) {
      const [declaration, ...others] = node.declarationList.declarations;
      const name = declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : "";
      const initializer = declaration?.initializer;
      // An empty literal is an error inside `not`, which only counts: left as it is.
      // So is one of `propertyNames`, which names the key (a few).
      const left =
        initializer &&
        ts.isObjectLiteralExpression(initializer) &&
        (initializer.properties.length === 0 || /\bpropertyName:/.test(source(initializer)));
      if (/^err\d+$/.test(name) && others.length === 0 && !left) {
        literals++;
        const replaced = errorCall(node, declaration, name);
        if (replaced) edits.push(replaced);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  const errorCall = (statement, declaration, name) => {
    const siblings = statement.parent.statements;
    const at = siblings?.indexOf(statement) ?? -1;
    const push = siblings?.[at + 1];
    const count = siblings?.[at + 2];
    if (!push || !count) return undefined;
    if (squeezed(push) !== `if(vErrors===null){vErrors=[${name}];}else{vErrors.push(${name});}`)
      return undefined;
    if (squeezed(count) !== "errors++;") return undefined;
    const literal = declaration.initializer;
    if (!literal || !ts.isObjectLiteralExpression(literal)) return undefined;
    const values = new Map();
    for (const property of literal.properties) {
      if (ts.isShorthandPropertyAssignment(property)) values.set(property.name.text, property.name.text);
      else if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name))
        values.set(property.name.text, source(property.initializer));
      else return undefined;
    }
    if (values.size !== ERROR_KEYS.length || ![...values.keys()].every((key, i) => key === ERROR_KEYS[i]))
      return undefined;
    const [instancePath, schemaPath, keyword, params, message, schema, parentSchema, data] = ERROR_KEYS.map(
      (key) => values.get(key),
    );
    const keywordText = /^"([A-Za-z$]+)"$/.exec(keyword)?.[1];
    const derived =
      keywordText !== undefined &&
      (schema === `${parentSchema}.${keywordText}` || schema === `${parentSchema}[${keyword}]`);
    const args = derived
      ? [instancePath, schemaPath, keyword, params, message, parentSchema, data]
      : [instancePath, schemaPath, keyword, params, message, schema, parentSchema, data];
    const call = `vErrors = ${derived ? "pushKeywordError" : "pushError"}(vErrors, ${args.join(", ")});errors++;`;
    return { start: statement.getStart(file), end: count.end, text: call };
  };
  visit(file);
  if (edits.length !== literals) {
    throw new Error(
      `${literals - edits.length} of ajv's ${literals} error literals are not in the form expected`,
    );
  }
  let compacted = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    compacted = compacted.slice(0, start) + text + compacted.slice(end);
  }
  // A key written into an error's or a call's `instancePath`, escaped as a JSON pointer.
  compacted = compacted.replace(
    /\b([A-Za-z_$][\w$]*)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/g,
    "escapedKey($1)",
  );
  if (compacted.includes('.replace(/~/g, "~0")'))
    throw new Error("ajv's code escapes a key in a form not expected");
  return HELPERS + hoistedStrings(compacted, ts);
}

/** Each string literal written often enough in expressions, as a constant of its own (named once). */
function hoistedStrings(code, ts) {
  if (/\btext\d+\b/.test(code)) throw new Error("ajv's code already uses names of the form textN");
  const file = ts.createSourceFile("validator.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = new Map();
  const visit = (node) => {
    if (ts.isStringLiteral(node) && hoistable(node)) {
      const text = node.getText(file);
      const seen = found.get(text) ?? [];
      seen.push(node);
      found.set(text, seen);
    }
    ts.forEachChild(node, visit);
  };
  const hoistable = (node) => {
    const parent = node.parent;
    if ((ts.isPropertyAssignment(parent) || ts.isPropertyAccessExpression(parent)) && parent.name === node)
      return false;
    if (
      ts.isCallExpression(parent) &&
      ts.isIdentifier(parent.expression) &&
      parent.expression.text === "require"
    )
      return false;
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExpressionStatement(parent))
      return false;
    // Parts of a concatenation ajv writes, which the minifier folds into one literal.
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) return false;
    // What V8 compiles best with the literal in place: a `typeof` test, a property read of the data.
    if (
      ts.isBinaryExpression(parent) &&
      [parent.left, parent.right].some((side) => ts.isTypeOfExpression(side))
    )
      return false;
    if (ts.isElementAccessExpression(parent)) return false;
    return true;
  };
  visit(file);
  const edits = [];
  const declarations = [];
  for (const [text, nodes] of found) {
    // Two quotes and two characters, twice: shorter once minified (measured: 4 and 2 gave the least).
    if (text.length < 4 || nodes.length < 2) continue;
    const name = `text${declarations.length}`;
    declarations.push(`const ${name} = ${text};`);
    for (const node of nodes) edits.push({ start: node.getStart(file), end: node.end, text: name });
  }
  let hoisted = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    hoisted = hoisted.slice(0, start) + text + hoisted.slice(end);
  }
  return `${declarations.join("\n")}\n${hoisted}`;
}

/**
 * The module with each of its functions written as a parenthesized expression, first: V8 compiles such a
 * function with the module rather than at its first call, so that Node's compile cache, which holds
 * what was compiled with the module, covers it (a run calls nearly every function of its validator).
 * Declarations become `var` bindings put before the statements that read them (`wrapper0 =
 * {validate: validate11}`), which is safe as the functions read the module's constants only when
 * called.
 */
function compiledAtLoad(code) {
  const ts = require("typescript");
  const file = ts.createSourceFile("validator.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const functions = file.statements.filter(ts.isFunctionDeclaration);
  const expressions = functions.map((declaration) => {
    const text = code.slice(declaration.getStart(file), declaration.end);
    return `var ${declaration.name.text} = (${text});`;
  });
  let rest = code;
  for (const declaration of [...functions].sort((a, b) => b.pos - a.pos)) {
    rest = rest.slice(0, declaration.getStart(file)) + rest.slice(declaration.end);
  }
  return `${expressions.join("\n")}\n${rest}`;
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
