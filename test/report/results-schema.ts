/**
 * The documented results schema (`schema/results.schema.json`), loaded as a user would load it: the
 * file itself, compiled by Ajv under draft 2020-12 in strict mode, with formats checked. Shared by the
 * unit tests of the records and the end-to-end tests of both hosts' outputs.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";

export const RESULTS_SCHEMA_PATH = fileURLToPath(
  new URL("../../schema/results.schema.json", import.meta.url),
);

export interface ResultsSchema {
  $defs: {
    result: { properties: Record<string, unknown>; required: string[] };
    status: { oneOf: { const: string; description: string }[] };
    changes: { properties: { against: { enum: string[] } } & Record<string, unknown> };
    change: { properties: Record<string, unknown>; required: string[] };
  };
}

export function loadResultsSchema(): ResultsSchema {
  return JSON.parse(readFileSync(RESULTS_SCHEMA_PATH, "utf8")) as ResultsSchema;
}

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const formatsModule = addFormatsPlugin as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;

/** A validator of the schema; it returns Ajv's errors as readable lines, empty when the value is valid. */
export function resultsValidator(): (value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(loadResultsSchema());
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map(
          (error) => `${error.instancePath || "/"} ${error.message ?? error.keyword}`,
        );
}

/** A validator of one change entry (`$defs.change`), as `gitbook-openapi diff --json` prints them. */
export function changeValidator(): (value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(loadResultsSchema(), "results");
  const validate = ajv.getSchema("results#/$defs/change");
  if (!validate) throw new Error("the results schema has no $defs/change");
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map(
          (error) => `${error.instancePath || "/"} ${error.message ?? error.keyword}`,
        );
}
