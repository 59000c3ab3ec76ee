/**
 * The validator of each OpenAPI version's official schema, and the schema itself (structure.ts reads
 * its branches). Here, in the sources, each is compiled by ajv at run time on first use (0.1–0.5 s);
 * `dist/` replaces this module with code generated at build time by ajv's standalone code generation,
 * a chunk per version imported when a document of that version is first validated
 * (scripts/validators-plugin.mjs; docs/design/validation-choice.md, "Validators compiled at build
 * time"). The options below are the ones the build generates with: change both together.
 */

import schema20 from "@seriousme/openapi-schema-validator/schemas/v2.0/schema.json" with { type: "json" };
import schema30 from "@seriousme/openapi-schema-validator/schemas/v3.0/schema.json" with { type: "json" };
import schema31 from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json" with { type: "json" };
import schema32 from "@seriousme/openapi-schema-validator/schemas/v3.2/schema.json" with { type: "json" };
import type { ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import Ajv04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import { uri, uriReference } from "./uri-format.ts";

export type SchemaVersion = "2.0" | "3.0" | "3.1" | "3.2";

export interface VersionValidator {
  validate: ValidateFunction;
  /** The schema the validator checks against: the objects its errors' `schema`/`parentSchema` are. */
  schema: unknown;
}

// CommonJS modules: their class or function is the module itself or its `default`.
type Constructor = new (
  options: Record<string, unknown>,
) => {
  compile(schema: unknown): ValidateFunction;
  addFormat(name: string, format: boolean | ((text: string) => boolean)): unknown;
};
const unwrap = <T>(module: unknown): T => ((module as { default?: T }).default ?? module) as T;

const SCHEMAS: Readonly<Record<SchemaVersion, unknown>> = {
  "2.0": schema20,
  "3.0": schema30,
  "3.1": schema31,
  "3.2": schema32,
};
const compiled = new Map<SchemaVersion, VersionValidator>();

/** Makes {@link validatorFor} ready for this version (the built module imports its chunk here). */
export async function loadValidator(_version: SchemaVersion): Promise<void> {}

/** Compiled on first use, once per process and version (about 0.1–0.5 s). */
export function validatorFor(version: SchemaVersion): VersionValidator {
  const known = compiled.get(version);
  if (known) return known;
  const draft04 = version === "2.0" || version === "3.0";
  const Ajv = unwrap<Constructor>(draft04 ? Ajv04Module : Ajv2020Module);
  // `verbose`: a failed `oneOf` carries its branches, to tell a selector that no branch took.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, verbose: true });
  unwrap<(ajv: unknown) => void>(addFormatsModule)(ajv);
  ajv.addFormat("media-range", true);
  ajv.addFormat("uri", uri);
  ajv.addFormat("uri-reference", uriReference);
  const validator = { validate: ajv.compile(SCHEMAS[version]), schema: SCHEMAS[version] };
  compiled.set(version, validator);
  return validator;
}
