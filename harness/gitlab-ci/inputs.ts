/**
 * GitLab's CI/CD inputs, as its documentation describes them (docs.gitlab.com/ci/inputs and the
 * `spec:inputs` keywords of docs.gitlab.com/ci/yaml), and as `lib/gitlab/ci/config/interpolation/` of
 * gitlab-org/gitlab implements them: a header document (`spec: inputs:`) separated from the configuration
 * by `---`; each input a `type` (string by default, array, number, boolean), a `default` (without one the
 * input is mandatory), `description`, `options` (at most 50, not for booleans) and `regex` (RE2, strings
 * only, a partial match); `$[[ inputs.name ]]` blocks in the configuration.
 *
 * GitLab interpolates in one of two ways, chosen by its feature flag `ci_text_interpolation`: on the
 * parsed YAML (each key and string value; a value that is one whole block takes the input's own type,
 * a block inside a longer string its text), or on the YAML text before it is parsed (a string input as
 * it is, any other as JSON). Both are here, so a test can require that a template means the same in both.
 */
import { RE2JS } from "re2js";
import { parseAllDocuments, parse as parseYaml } from "yaml";

export type InputType = "string" | "array" | "number" | "boolean";
export type InputValue = string | number | boolean | unknown[];

export interface InputSpec {
  type: InputType;
  /** Absent: the input is mandatory. */
  default?: InputValue;
  description?: string;
  options?: InputValue[];
  regex?: string;
}

export interface Template {
  inputs: Record<string, InputSpec>;
  /** The configuration after the header's `---`, as text. */
  body: string;
}

/** A template or its inputs break one of GitLab's documented rules; the message says which. */
export class GitLabInputError extends Error {
  override readonly name = "GitLabInputError";
}

const TYPES: readonly InputType[] = ["string", "array", "number", "boolean"];
const SPEC_KEYS = new Set(["type", "default", "description", "options", "regex", "rules"]);
const MAX_OPTIONS = 50;
/** Template::BLOCK_PATTERN of GitLab's interpolation. */
const BLOCK = /\$\[\[\s*(\S.*?\S)\s*\]\]/g;
const MAX_ACCESS_BYTES = 1024;

/** Reads a template's header and checks it against the documented rules of `spec:inputs`. */
export function readTemplate(text: string): Template {
  const documents = parseAllDocuments(text, { version: "1.1" });
  if (!Array.isArray(documents) || documents.length !== 2) {
    throw new GitLabInputError(
      "a template with inputs is a header document and the configuration, split by ---",
    );
  }
  const [header, config] = documents as [(typeof documents)[0], (typeof documents)[0]];
  for (const document of documents) {
    if (document.errors.length > 0) throw new GitLabInputError(`YAML: ${document.errors[0]?.message}`);
  }
  const spec = header.toJS() as unknown;
  if (!isRecord(spec) || Object.keys(spec).join() !== "spec" || !isRecord(spec.spec)) {
    throw new GitLabInputError("the header holds one key, spec");
  }
  const declared = spec.spec.inputs;
  if (!isRecord(declared)) throw new GitLabInputError("spec:inputs is a hash of inputs");
  const inputs: Record<string, InputSpec> = {};
  for (const [name, raw] of Object.entries(declared)) inputs[name] = checkSpec(name, raw ?? {});
  const body = text.slice(config.range[0]);
  return { inputs, body };
}

function checkSpec(name: string, raw: unknown): InputSpec {
  const fail = (message: string) => new GitLabInputError(`\`${name}\` input: ${message}`);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw fail("a name is letters, digits, - and _");
  if (!isRecord(raw)) throw fail("its specification is a hash");
  for (const key of Object.keys(raw)) if (!SPEC_KEYS.has(key)) throw fail(`unknown keyword ${key}`);
  const type = raw.type ?? "string";
  if (!TYPES.includes(type as InputType))
    throw fail(`type is one of ${TYPES.join(", ")}, not ${String(type)}`);
  const input: InputSpec = { type: type as InputType };
  if (raw.description !== undefined) {
    if (typeof raw.description !== "string") throw fail("description is a string");
    input.description = raw.description;
  }
  if (raw.regex !== undefined) {
    if (type !== "string") throw fail("regex can only be used with a type of string");
    if (typeof raw.regex !== "string") throw fail("regex is a string");
    try {
      RE2JS.compile(raw.regex);
    } catch {
      throw fail("invalid regular expression");
    }
    input.regex = raw.regex;
  }
  if (raw.options !== undefined) {
    if (type === "boolean") throw fail("options cannot be used with a type of boolean");
    if (!Array.isArray(raw.options) || raw.options.length === 0) throw fail("options is a list of values");
    if (raw.options.length > MAX_OPTIONS) throw fail(`at most ${MAX_OPTIONS} options`);
    for (const option of raw.options) {
      if (!isOfType(option, input.type)) throw fail(`option ${JSON.stringify(option)} is not a ${type}`);
    }
    input.options = raw.options as InputValue[];
  }
  if (raw.rules !== undefined) throw fail("spec:inputs:rules is not supported by this harness");
  if ("default" in raw) {
    const value = raw.default as InputValue;
    if (!isOfType(value, input.type)) throw fail(`default value is not a ${type}`);
    checkValue(input, value, fail, "default value");
    input.default = value;
  }
  return input;
}

/**
 * The inputs' values: those given (as `include:inputs` writes them, YAML-typed), else the defaults.
 * Refuses an unknown input, a missing mandatory one, a value of another type, outside the options or not
 * matching the regex, with GitLab's words.
 */
export function resolveInputs(
  template: Template,
  given: Readonly<Record<string, unknown>>,
): Record<string, InputValue> {
  const unknown = Object.keys(given).filter((name) => !(name in template.inputs));
  if (unknown.length > 0) throw new GitLabInputError(`unknown input arguments: ${unknown.join(", ")}`);
  const values: Record<string, InputValue> = {};
  for (const [name, spec] of Object.entries(template.inputs)) {
    const fail = (message: string) => new GitLabInputError(`\`${name}\` input: ${message}`);
    const value = given[name] ?? spec.default;
    if (value === undefined) throw fail("required value has not been provided");
    if (!isOfType(value, spec.type)) throw fail(`provided value is not a ${spec.type}`);
    checkValue(spec, value as InputValue, fail, "provided value");
    values[name] = value as InputValue;
  }
  return values;
}

function checkValue(
  spec: InputSpec,
  value: InputValue,
  fail: (message: string) => Error,
  what: string,
): void {
  if (spec.options && !spec.options.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    throw fail(`${what} is not one of the options`);
  }
  if (spec.regex !== undefined && !RE2JS.compile(spec.regex).matcher(String(value)).find()) {
    throw fail(`${what} does not match required RegEx pattern`);
  }
}

function isOfType(value: unknown, type: InputType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
  }
}

/** The input names of every `$[[ … ]]` block in the text, in order; a block that is not `inputs.x` throws. */
export function blocksOf(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((match) => accessOf(match[1] ?? ""));
}

function accessOf(data: string): string {
  const [access, ...functions] = data.split("|").map((part) => part.trim());
  if (functions.length > 0)
    throw new GitLabInputError(`interpolation functions are not supported here: ${data}`);
  if (Buffer.byteLength(access ?? "") > MAX_ACCESS_BYTES) {
    throw new GitLabInputError("maximum interpolation expression size exceeded");
  }
  const parts = (access ?? "").split(".");
  if (parts.length !== 2 || parts[0] !== "inputs" || !parts[1]) {
    throw new GitLabInputError(`invalid interpolation access pattern: ${data}`);
  }
  return parts[1];
}

function inputValue(data: string, values: Readonly<Record<string, InputValue>>): InputValue {
  const name = accessOf(data);
  const value = values[name];
  if (value === undefined) throw new GitLabInputError(`unknown interpolation key: \`${name}\``);
  return value;
}

/** Interpolation on the parsed configuration (GitLab's default), returning the configuration. */
export function interpolateParsed(body: string, values: Readonly<Record<string, InputValue>>): unknown {
  const replace = (node: unknown): unknown => {
    if (typeof node === "string") {
      const whole = /^\$\[\[\s*(\S.*?\S)\s*\]\]$/.exec(node);
      if (whole && [...node.matchAll(BLOCK)].length === 1) return inputValue(whole[1] ?? "", values);
      return node.replace(BLOCK, (_, data: string) => rubyText(inputValue(data, values)));
    }
    if (Array.isArray(node)) return node.map(replace);
    if (isRecord(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [replace(key), replace(value)]));
    }
    return node;
  };
  return replace(parseConfig(body));
}

/** Interpolation on the text (`ci_text_interpolation`), returning the configuration parsed after it. */
export function interpolateText(body: string, values: Readonly<Record<string, InputValue>>): unknown {
  const text = body.replace(BLOCK, (_, data: string) => {
    const value = inputValue(data, values);
    return typeof value === "string" ? value : JSON.stringify(value);
  });
  return parseConfig(text);
}

/** GitLab's YAML (Ruby's Psych: YAML 1.1, where `yes` and `off` are booleans), `<<` merge keys honoured. */
function parseConfig(text: string): unknown {
  const config = parseYaml(text, { version: "1.1", merge: true }) as unknown;
  if (!isRecord(config)) throw new GitLabInputError("the configuration is a hash of jobs and keywords");
  return config;
}

/** A value as Ruby's `to_s` writes it inside a string: `true`, `2`, an array as `["a", 1]`. */
function rubyText(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  const inspect = (item: unknown): string =>
    typeof item === "string" ? JSON.stringify(item) : Array.isArray(item) ? rubyText(item) : String(item);
  return `[${value.map(inspect).join(", ")}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
