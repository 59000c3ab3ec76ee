/**
 * Structural validation against the official JSON Schema of the document's OpenAPI version, with ajv;
 * its raw errors reduced to one short issue per node and kind of problem, at the offending node's key
 * path. The validator chosen and the reduction: docs/design/validation-choice.md.
 */

import type { ErrorObject } from "ajv";
import { pointerTokens } from "../bundling/pointer.ts";
import { truncate } from "../text/truncate.ts";
import { loadValidator, type SchemaVersion, validatorFor } from "./validators.ts";

export interface StructuralIssue {
  /** The offending node's keys from the document's root (array indexes as decimal text). */
  keyPath: string[];
  message: string;
  /**
   * What GitBook cannot take (a `$ref` that cannot be resolved): an error whatever `strict` says. Any
   * other issue is an error only with `strict`.
   */
  blocking?: true;
  /** A problem GitBook itself does not mind: always a warning, even with `strict`. */
  warningOnly?: true;
}

/** The schema's version for a declared `openapi`/`swagger` value; undefined for one not known. */
function schemaVersionOf(declaredVersion: string): SchemaVersion | undefined {
  if (declaredVersion === "2.0") return "2.0";
  const minor = /^3\.([0-2])(\.|$|-)/.exec(declaredVersion)?.[1];
  return minor === undefined ? undefined : (`3.${minor}` as SchemaVersion);
}

/**
 * Loads the validator for a declared `openapi`/`swagger` value (in `dist/`, its version's chunk), or
 * for every version when none is given; nothing for a version with no schema here.
 */
export async function prepareValidator(declaredVersion?: string): Promise<void> {
  const versions =
    declaredVersion === undefined
      ? (["2.0", "3.0", "3.1", "3.2"] as const)
      : [schemaVersionOf(declaredVersion)];
  for (const version of versions) if (version !== undefined) await loadValidator(version);
}

/**
 * Every structural issue of `document` for its declared version, in document order of their paths;
 * undefined when the version has no schema here. The caller caps and locates them.
 */
export function structuralIssues(document: unknown, declaredVersion: string): StructuralIssue[] | undefined {
  const version = schemaVersionOf(declaredVersion);
  if (version === undefined) return undefined;
  const { validate, schema } = validatorFor(version);
  if (validate(document)) return [];
  return summarize(validate.errors ?? [], document, version, schema);
}

interface RawError {
  path: string[];
  error: ErrorObject;
}

/** ajv's errors → one issue per node and kind, the alternatives of each `oneOf`/`anyOf` reduced. */
export function summarize(
  errors: readonly ErrorObject[],
  document: unknown,
  version: SchemaVersion = "3.1",
  schema: unknown = validatorFor(version).schema,
): StructuralIssue[] {
  const raw: RawError[] = errors.flatMap((error) => {
    const path = pointerTokens(error.instancePath);
    // `propertyNames` (3.1's component names): the failure inside it names the key; the wrapper says
    // nothing more.
    if (error.keyword === "propertyNames") return [];
    if (error.propertyName === undefined) return [{ path, error }];
    const key = error.propertyName;
    return [
      {
        path: [...path, key],
        error: { ...error, keyword: "propertyName", params: { ...error.params, key } },
      },
    ];
  });
  // The first alternative at each node: looked up by the prefixes of an error's path, not by a scan of
  // every alternative per error (a document with thousands of failed `oneOf`s made that quadratic).
  const alternativeAt = new Map<string, RawError>();
  for (const entry of raw) {
    if (entry.error.keyword !== "oneOf" && entry.error.keyword !== "anyOf") continue;
    const at = entry.path.map((key) => `\u0000${key}`).join("");
    if (!alternativeAt.has(at)) alternativeAt.set(at, entry);
  }
  const ownerOf = (path: readonly string[]): RawError | undefined => {
    let at = "";
    for (let length = 0; ; length++) {
      const owner = alternativeAt.get(at);
      if (owner || length === path.length) return owner;
      at += `\u0000${path[length]}`;
    }
  };
  // Each error goes to the shallowest alternative that holds it; the rest stand alone.
  const groups = new Map<RawError | undefined, RawError[]>();
  for (const entry of raw) {
    if (["oneOf", "anyOf", "if", "not", "allOf"].includes(entry.error.keyword)) continue;
    const owner = alternativeAt.size === 0 ? undefined : ownerOf(entry.path);
    const group = groups.get(owner) ?? [];
    group.push(entry);
    groups.set(owner, group);
  }
  const kept: RawError[] = [];
  const branches = branchesAt(raw);
  const choices = alternativesAt(raw, schema);
  for (const [owner, group] of groups) {
    if (owner === undefined) kept.push(...group);
    else if (
      owner.error.keyword === "anyOf" &&
      group.every((e) => isRequired(e) && e.path.length === owner.path.length)
    )
      kept.push(oneOfFields(owner, group));
    else kept.push(...bestOf(withoutRefusedBranches(group, choices), version, branches));
  }
  const issues = new Map<string, StructuralIssue>();
  for (const { path, error } of mergeAlternativeFields(withoutStatusCompanions(kept))) {
    const issue = describe(path, error, document, version);
    const key = `${issue.keyPath.join("\u0000")}\u0001${issue.message}`;
    if (!issues.has(key)) issues.set(key, issue);
  }
  return [...issues.values()];
}

/** Every branch schema of the `oneOf`s/`anyOf`s that failed at each node, `$ref`s into the root followed. */
function alternativesAt(raw: readonly RawError[], root: unknown): Map<string, Set<object>> {
  const found = new Map<string, Set<object>>();
  for (const { path, error } of raw) {
    if ((error.keyword !== "oneOf" && error.keyword !== "anyOf") || !Array.isArray(error.schema)) continue;
    const at = path.join("\u0000");
    const set = found.get(at) ?? new Set<object>();
    for (const branch of error.schema as unknown[]) {
      const resolved = resolveLocal(root, branch);
      if (resolved) set.add(resolved);
    }
    found.set(at, set);
  }
  return found;
}

/** A branch schema, its `$ref` into the root schema followed (a few hops at most). */
function resolveLocal(root: unknown, branch: unknown): object | undefined {
  let node = branch;
  for (let hops = 0; hops < 8; hops++) {
    if (!isObject(node)) return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
    let target: unknown = root;
    for (const key of pointerTokens(ref.slice(1)))
      target = isObject(target) ? (target as Record<string, unknown>)[key] : undefined;
    node = target;
  }
  return undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The errors of the branches a value was not meant for, taken out: where branches are told apart by a
 * discriminating field (`in` for parameters, `type` for a 2.0 file schema), a branch whose `enum` or
 * `const` refused the field's value was not meant, and neither its refusal nor anything else it says
 * about the node is the problem (a path parameter without `required: true` is not "`in` must be one of
 * query, header, cookie"). Unchanged when no branch accepted the value: then the refusal is the problem.
 */
function withoutRefusedBranches(group: RawError[], choices: ReadonlyMap<string, Set<object>>): RawError[] {
  const key = (path: readonly string[]) => path.join("\u0000");
  const isChoice = ({ error }: RawError) => error.keyword === "enum" || error.keyword === "const";
  const refusals = new Map<string, RawError[]>();
  for (const entry of group) {
    if (!isChoice(entry) || entry.path.length === 0) continue;
    const at = key(entry.path.slice(0, -1));
    refusals.set(at, [...(refusals.get(at) ?? []), entry]);
  }
  if (refusals.size === 0) return group;
  // The errors at each node that has refusals, and at its fields: one pass over the group.
  const within = new Map<string, RawError[]>();
  for (const entry of group) {
    for (const at of [key(entry.path), entry.path.length > 0 ? key(entry.path.slice(0, -1)) : undefined]) {
      if (at === undefined || !refusals.has(at)) continue;
      within.set(at, [...(within.get(at) ?? []), entry]);
    }
  }
  const dropped = new Set<RawError>();
  for (const [at, here] of refusals) {
    const near = within.get(at) ?? [];
    const refusedSchemas = new Set(here.map(({ error }) => error.parentSchema));
    const candidates = new Set(choices.get(at) ?? []);
    for (const entry of near)
      if (key(entry.path) === at && isObject(entry.error.parentSchema))
        candidates.add(entry.error.parentSchema);
    const refused = new Set<unknown>();
    let accepted = false;
    for (const branch of candidates) {
      const properties = (branch as { properties?: unknown }).properties;
      if (!isObject(properties)) continue;
      for (const { path } of here) {
        const selector = (properties as Record<string, unknown>)[path.at(-1) as string];
        if (!isObject(selector) || !("enum" in selector || "const" in selector)) continue;
        if (refusedSchemas.has(selector)) {
          refused.add(branch);
          for (const property of Object.values(properties)) refused.add(property);
        } else accepted = true;
      }
    }
    if (!accepted) continue;
    const gone = near.filter((entry) => refused.has(entry.error.parentSchema));
    // Something of the meant branch must be left, not only the Reference branch's: else the refusals stand.
    const left = near.filter((entry) => !gone.includes(entry));
    if (left.some((entry) => !(isRequired(entry) && missingOf(entry) === "$ref")))
      for (const entry of gone) dropped.add(entry);
  }
  return dropped.size === 0 ? group : group.filter((entry) => !dropped.has(entry));
}

/**
 * A lowercase range (`2xx`) in `responses` also makes 3.1's "at least one status code, else `default`"
 * rule fail: that `default` is missing is no problem of its own once the key is written `2XX`.
 */
function withoutStatusCompanions(errors: RawError[]): RawError[] {
  const ranged = new Set(
    errors
      .filter(({ error }) => {
        const params = error.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown };
        const extra = params.additionalProperty ?? params.unevaluatedProperty;
        return typeof extra === "string" && isLowercaseRange(extra);
      })
      .map(({ path }) => path.join("\u0000")),
  );
  if (ranged.size === 0) return errors;
  return errors.filter(
    (entry) =>
      !(
        isRequired(entry) &&
        missingOf(entry) === "default" &&
        entry.error.schemaPath.endsWith("/then/required") &&
        ranged.has(entry.path.join("\u0000"))
      ),
  );
}

/** `2xx`, `4Xx`: a range of status codes not written in capitals. */
function isLowercaseRange(key: string): boolean {
  return /^[1-5]xx$/i.test(key) && key !== key.toUpperCase();
}

/** Keywords of a schema that Swagger 2.0 does not have. */
const SCHEMA_COMBINATORS = new Set(["anyOf", "oneOf", "not"]);

function isPathParameter(value: unknown): boolean {
  return isObject(value) && (value as { in?: unknown }).in === "path";
}

/**
 * Fields required by the branches of one `oneOf`/`anyOf` (`schema` or `content`): one error naming
 * them all, in place of one error per branch.
 */
function mergeAlternativeFields(errors: RawError[]): RawError[] {
  const branch = /^(.*)\/(?:oneOf|anyOf)\/\d+\/required$/;
  const byChoice = new Map<string, RawError[]>();
  for (const entry of errors) {
    const choice = isRequired(entry) ? branch.exec(entry.error.schemaPath)?.[1] : undefined;
    if (choice === undefined) continue;
    const key = `${entry.path.join("/")}\u0000${choice}`;
    byChoice.set(key, [...(byChoice.get(key) ?? []), entry]);
  }
  const merged = new Set<RawError>();
  const result: RawError[] = [];
  for (const entry of errors) {
    if (merged.has(entry)) continue;
    const choice = isRequired(entry) ? branch.exec(entry.error.schemaPath)?.[1] : undefined;
    const group = choice === undefined ? undefined : byChoice.get(`${entry.path.join("/")}\u0000${choice}`);
    if (!group || group.length < 2) {
      result.push(entry);
      continue;
    }
    for (const member of group) merged.add(member);
    const fields = [...new Set(group.map(missingOf))];
    result.push({
      path: entry.path,
      error: { ...entry.error, keyword: "requiredOneOf", params: { fields } },
    });
  }
  return result;
}

/** The errors of one failed alternative: those deepest in the document, a `$ref` branch's last. */
/**
 * How many alternatives a node had, by its key path: the branches of its failed `oneOf`s, each nested
 * `oneOf` standing for the branch that holds it, the Reference branch left out (counted by the caller).
 */
function branchesAt(raw: readonly RawError[]): Map<string, number> {
  const totals = new Map<string, { branches: number; oneOfs: number }>();
  for (const { path, error } of raw) {
    if (error.keyword !== "oneOf" || !Array.isArray(error.schema)) continue;
    const at = path.join("\u0000");
    const total = totals.get(at) ?? { branches: 0, oneOfs: 0 };
    totals.set(at, { branches: total.branches + error.schema.length, oneOfs: total.oneOfs + 1 });
  }
  return new Map([...totals].map(([at, { branches, oneOfs }]) => [at, branches - (oneOfs - 1)]));
}

function bestOf(
  group: RawError[],
  version: SchemaVersion,
  branches: ReadonlyMap<string, number>,
): RawError[] {
  const key = (path: readonly string[]) => path.join("\u0000");
  const isRefRequired = (entry: RawError) => isRequired(entry) && missingOf(entry) === "$ref";
  const refNodes = new Set(group.filter(isRefRequired).map(({ path }) => key(path)));
  // In 2.0 the Reference branch also refuses every other field of the node: a field that only it
  // refuses (`description` of a response) is no problem of the node's own branch.
  const refusals = new Map<string, number>();
  for (const { path, error } of group) {
    if (error.keyword !== "additionalProperties") continue;
    const at = `${key(path)}\u0001${String((error.params as { additionalProperty?: unknown }).additionalProperty)}`;
    refusals.set(at, (refusals.get(at) ?? 0) + 1);
  }
  const isRefBranch = (entry: RawError) =>
    isRefRequired(entry) ||
    (version === "2.0" &&
      entry.error.keyword === "additionalProperties" &&
      refNodes.has(key(entry.path)) &&
      refusals.get(
        `${key(entry.path)}\u0001${String((entry.error.params as { additionalProperty?: unknown }).additionalProperty)}`,
      ) === 1);
  const others = group.filter((entry) => !isRefBranch(entry));
  let pool = others.length > 0 ? others : group;

  // An `enum`/`const` refused by several branches at one node is the branches' selector (`in`, `type`).
  const isChoice = ({ error }: RawError) => error.keyword === "enum" || error.keyword === "const";
  const choices = new Map<string, RawError[]>();
  for (const entry of pool.filter(isChoice))
    choices.set(key(entry.path), [...(choices.get(key(entry.path)) ?? []), entry]);
  for (const refused of choices.values()) {
    if (refused.length < 2) continue;
    const allowed = refused.flatMap(({ error }) => {
      const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
      return params.allowedValues ?? [params.allowedValue];
    });
    const rest = pool.filter((entry) => !refused.includes(entry));
    // Every branch refused the value when as many refused it as there were branches (the Reference
    // branch, which has no such field, aside).
    const node = key((refused[0] as RawError).path.slice(0, -1));
    const leaves = (branches.get(node) ?? Number.POSITIVE_INFINITY) - (refNodes.has(node) ? 1 : 0);
    if (refused.length >= leaves || rest.every(isRequired)) {
      // No branch took the value: that is the problem, said once with every value a branch takes.
      const first = refused[0] as RawError;
      return [
        {
          path: first.path,
          error: { ...first.error, keyword: "enum", params: { allowedValues: [...new Set(allowed)] } },
        },
      ];
    }
    pool = rest.length > 0 ? rest : pool;
  }
  // A lone refusal below a node that other branches find incomplete picked another branch
  // (`in: query` is not the body parameter); one at the same node as other errors is the problem.
  const shallowest = Math.min(...pool.map(({ path }) => path.length));
  const selectors = pool.filter((entry) => isChoice(entry) && entry.path.length > shallowest);
  if (selectors.length > 0 && selectors.length < pool.length) {
    const nonSelectors = pool.filter((entry) => !selectors.includes(entry));
    if (nonSelectors.some((entry) => entry.path.length < (selectors[0] as RawError).path.length))
      pool = nonSelectors;
  }
  const depth = Math.max(...pool.map(({ path }) => path.length));
  let deepest = pool.filter(({ path }) => path.length === depth);
  // An `enum` says more than the `type` of another branch at the same node (2.0's `type: strin`).
  if (deepest.some(isChoice)) deepest = deepest.filter(({ error }) => error.keyword !== "type");
  // The value's own type chose the branch (a mapping is a schema, not the list of schemas 2.0's `items`
  // also takes): when one branch took the value as it is and says what it lacks, another branch's
  // "must be a list" is not the problem.
  const notType = deepest.filter(({ error }) => error.keyword !== "type");
  return notType.length > 0 ? notType : deepest;
}

const isRequired = ({ error }: RawError) => error.keyword === "required";
const missingOf = ({ error }: RawError) =>
  String((error.params as { missingProperty?: unknown }).missingProperty);

/** An `anyOf` of required fields none of which is there: one error naming them all. */
function oneOfFields(owner: RawError, group: RawError[]): RawError {
  const fields = [...new Set(group.map(missingOf))];
  return { path: owner.path, error: { ...owner.error, keyword: "requiredOneOf", params: { fields } } };
}

/** What some well-known fields hold, for type messages. */
const WHAT_IT_HOLDS: Readonly<Record<string, string>> = {
  paths: "a mapping of paths (`/pets`) to path items",
  responses: "a mapping of status codes (`200`, `4XX`, `default`) to responses",
  parameters: "a list of parameters",
  components: "a mapping of component kinds (`schemas`, `responses`…)",
  schemas: "a mapping of names to schemas",
  definitions: "a mapping of names to schemas",
  properties: "a mapping of property names to schemas",
  servers: "a list of servers",
  tags: "a list of tags",
  security: "a list of security requirements",
  info: "a mapping with a `title` and a `version`",
  content: "a mapping of media types to media type objects",
  headers: "a mapping of header names to headers",
  required: "a list of property names",
  enum: "a list of values",
  $ref: "a string: a URI reference such as `#/components/schemas/Pet`",
};

/** What a container's keys must look like, for messages on an unknown key. */
const KEY_RULES: Readonly<Record<string, string>> = {
  paths: "each path starts with `/`",
  responses: "keys are status codes (`200`, `4XX`) or `default`",
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "null",
};

function kindOf(value: unknown): string {
  if (value === null) return "empty (null)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string ${JSON.stringify(truncate(value, 40))}`;
  return `${typeof value === "number" ? "the number" : ""} ${String(value)}`.trim();
}

function valueAt(document: unknown, path: readonly string[]): unknown {
  let node = document;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** `responses`, `parameters[0]`, or `the document` for the root: how a message names a node. */
function nameOf(path: readonly string[]): string {
  if (path.length === 0) return "the document";
  const last = path.at(-1) as string;
  const parent = path.at(-2);
  if (/^\d+$/.test(last) && parent !== undefined) return `\`${plain(parent)}[${last}]\``;
  // A key that cannot stand alone (empty, with a backquote or a control character) is shown quoted,
  // under its parent.
  if (needsQuotes(last)) return `\`${parent === undefined ? "" : plain(parent)}[${plain(last)}]\``;
  return `\`${plain(last)}\``;
}

/**
 * A key as a message shows it: as written, or quoted as JSON when it is empty or holds a backquote or
 * a control character (a line break in a key must not break the message's line, nor start a line a CI
 * log reads as a command); cut to {@link MAX_KEY_LENGTH} characters.
 */
function plain(key: string): string {
  const short = truncate(key, MAX_KEY_LENGTH);
  return needsQuotes(short) ? JSON.stringify(short).replaceAll("`", "'") : short;
}

const MAX_KEY_LENGTH = 80;

function needsQuotes(key: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return key === "" || /[`\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(key);
}

function describe(
  path: string[],
  error: ErrorObject,
  document: unknown,
  version: SchemaVersion,
): StructuralIssue {
  const params = error.params as Record<string, unknown>;
  const name = nameOf(path);
  const value = valueAt(document, path);
  const last = path.at(-1) ?? "";
  switch (error.keyword) {
    case "type": {
      const holder = path.at(-2);
      if (last === "$ref" && String(params.type) === "object" && holder !== undefined) {
        return issue(
          path,
          `\`${plain(holder)}\` holds a \`$ref\`, read as an entry named "$ref": \`${plain(holder)}\` must be ${WHAT_IT_HOLDS[holder] ?? "a mapping"}; put the \`$ref\` on the object that holds \`${plain(holder)}\` (or use \`allOf\`).`,
        );
      }
      const expected = String(params.type)
        .split(",")
        .map((type) => TYPE_NAMES[type] ?? type)
        .join(" or ");
      const holds = WHAT_IT_HOLDS[last];
      const wanted = holds?.startsWith(expected) ? holds : expected;
      const message = `${name} must be ${wanted}; it is ${kindOf(value)}.`;
      // A `$ref` that is not a text names nothing: no tool can resolve it.
      if (last === "$ref" && typeof value !== "string") return { keyPath: path, message, blocking: true };
      return issue(path, message);
    }
    case "requiredOneOf": {
      const fields = (params.fields as string[]).map((field) => `\`${field}\``).join(", ");
      return issue(path, `${name} must have at least one of ${fields}.`);
    }
    case "required": {
      const field = String(params.missingProperty);
      if (field === "required" && isPathParameter(value))
        return issue(path, `${name} is a path parameter (\`in: path\`): it needs \`required: true\`.`);
      return issue(path, `${name} is missing the required field \`${field}\`.`);
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = String(params.additionalProperty ?? params.unevaluatedProperty);
      if (key === "parent" && path.length === 2 && path[0] === "tags") {
        // OpenAPI 3.2's `parent`, which GitBook reads in any version (docs/design/gitbook-extensions.md).
        return {
          keyPath: [...path, key],
          message:
            "This tag's `parent` is a field of OpenAPI 3.2: GitBook reads it, other tools refuse it before 3.2. Write `x-parent`, or declare `openapi: 3.2.0`.",
          warningOnly: true,
        };
      }
      if (last === "responses" && version !== "2.0" && isLowercaseRange(key)) {
        return {
          keyPath: [...path, key],
          message: `${name} has the key \`${plain(key)}\`, which is not a status code: a range of status codes is written in capitals, \`${key.toUpperCase()}\`.`,
        };
      }
      const rule = KEY_RULES[last];
      const hint = rule
        ? ` (${rule})`
        : key === "$ref"
          ? " (a `$ref` stands for a whole object, not for one of its fields)"
          : version === "2.0" && SCHEMA_COMBINATORS.has(key)
            ? " (a Swagger 2.0 schema has no `anyOf`, `oneOf` or `not`: use `allOf`, or declare OpenAPI 3)"
            : " (extensions start with `x-`)";
      return {
        keyPath: [...path, key],
        message: `${name} has an unknown field \`${plain(key)}\`${hint}.`,
      };
    }
    case "enum": {
      const allowed = params.allowedValues as unknown[];
      if (
        last === "required" &&
        allowed.length === 1 &&
        allowed[0] === true &&
        isPathParameter(valueAt(document, path.slice(0, -1)))
      )
        return issue(
          path,
          `a path parameter (\`in: path\`) needs \`required: true\`; it is ${kindOf(value)}.`,
        );
      const wanted =
        allowed.length === 1
          ? JSON.stringify(allowed[0])
          : `one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
      return issue(path, `${name} must be ${wanted}; it is ${kindOf(value)}.`);
    }

    case "const":
      return issue(path, `${name} must be ${JSON.stringify(params.allowedValue)}; it is ${kindOf(value)}.`);
    case "format":
      return issue(path, `${name} must be a valid ${String(params.format)}; it is ${kindOf(value)}.`);
    case "propertyName": {
      const rule = params.pattern === undefined ? "is not allowed" : `must match ${String(params.pattern)}`;
      return issue(path, `${nameOf(path.slice(0, -1))} has the key \`${plain(last)}\`, which ${rule}.`);
    }
    case "pattern":
      return issue(path, `${name} must match ${String(params.pattern)}; it is ${kindOf(value)}.`);
    case "minProperties":
      return issue(path, `${name} must not be empty.`);
    case "minItems":
      return issue(path, `${name} must hold at least ${String(params.limit)} item(s).`);
    case "uniqueItems":
      return issue(
        path,
        `${name} must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same).`,
      );
    default:
      return issue(path, `${name} ${error.message ?? `fails the rule \`${error.keyword}\``}.`);
  }
}

function issue(keyPath: string[], message: string): StructuralIssue {
  return { keyPath, message };
}
