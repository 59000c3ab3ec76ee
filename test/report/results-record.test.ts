/**
 * The results record and its documented schema: the schema's values and fields are those of the run's
 * own types (read from `src/core/result.ts` by the TypeScript compiler, so that a new status or field
 * fails here until the schema says it), and every kind of record the run makes is valid under it.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { renderOutputs } from "../../src/core/report/outputs.ts";
import { FIELDS_LEFT_OUT, toResultRecord, toResultRecords } from "../../src/core/report/results-record.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { loadResultsSchema, resultsValidator } from "./results-schema.ts";

const RESULT_TYPES = fileURLToPath(new URL("../../src/core/result.ts", import.meta.url));

/** The run's result types as the compiler sees them. */
function resultTypes() {
  const program = ts.createProgram([RESULT_TYPES], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(RESULT_TYPES);
  if (!source) throw new Error(`${RESULT_TYPES} not found`);
  const declaration = (name: string) => {
    const found = source.statements.find(
      (statement) =>
        (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
        statement.name.text === name,
    );
    if (!found) throw new Error(`${name} is not declared in src/core/result.ts`);
    return checker.getTypeAtLocation(found);
  };
  const literals = (type: ts.Type): string[] =>
    (type.isUnion() ? type.types : [type]).map((member) => {
      if (!member.isStringLiteral())
        throw new Error(`${checker.typeToString(member)} is not a string literal`);
      return member.value;
    });
  const propertyType = (owner: ts.Type, name: string) => {
    const property = owner.getProperty(name);
    if (!property) throw new Error(`no property ${name}`);
    return checker.getNonNullableType(checker.getTypeOfSymbol(property));
  };
  const specResult = declaration("SpecResult");
  const specChange = declaration("SpecChange");
  const fieldsOf = (type: ts.Type) => checker.getPropertiesOfType(type).map((property) => property.name);
  return {
    changeFields: fieldsOf(specChange),
    changeRequired: checker
      .getPropertiesOfType(specChange)
      .filter((property) => (property.flags & ts.SymbolFlags.Optional) === 0)
      .map((property) => property.name),
    statuses: literals(declaration("SpecStatus")),
    operations: literals(declaration("SpecOperation")),
    against: literals(propertyType(declaration("SpecChanges"), "against")),
    resultFields: checker.getPropertiesOfType(specResult).map((property) => property.name),
  };
}

const sorted = (values: readonly (string | null)[]) => [...values].sort();

describe("the results schema", () => {
  const schema = loadResultsSchema();
  const types = resultTypes();

  it("has exactly the statuses of SpecStatus, each described", () => {
    const statuses = schema.$defs.status.oneOf.map((entry) => entry.const);
    expect(sorted(statuses)).toEqual(sorted(types.statuses));
    for (const entry of schema.$defs.status.oneOf) expect(entry.description.length).toBeGreaterThan(10);
  });

  it("has exactly the operations of SpecOperation, and null", () => {
    const operation = schema.$defs.result.properties.operation as { enum: (string | null)[] };
    expect(sorted(operation.enum)).toEqual(sorted([...types.operations, null]));
  });

  it("has exactly the comparisons of SpecChanges.against", () => {
    expect(sorted(schema.$defs.changes.properties.against.enum)).toEqual(sorted(types.against));
  });

  it("describes each change with exactly the fields of SpecChange, required as they are", () => {
    const change = schema.$defs.change;
    expect(sorted(Object.keys(change.properties))).toEqual(sorted(types.changeFields));
    expect(sorted(change.required)).toEqual(sorted(types.changeRequired));
    for (const list of ["breaking", "other", "allowed"] as const) {
      expect(schema.$defs.changes.properties[list]).toMatchObject({ items: { $ref: "#/$defs/change" } });
    }
  });

  it("has every field of SpecResult but those left out on purpose, all required but changes", () => {
    const fields = Object.keys(schema.$defs.result.properties);
    const expected = types.resultFields.filter(
      (field) => !FIELDS_LEFT_OUT.includes(field as keyof SpecResult),
    );
    expect(sorted(fields)).toEqual(sorted(expected));
    expect(sorted(schema.$defs.result.required)).toEqual(
      sorted(fields.filter((field) => field !== "changes")),
    );
  });
});

const full: Required<SpecResult> = {
  file: "api/pets.yaml",
  slug: "api-pets-pr-9",
  status: "published",
  operation: "update",
  specVersion: "1.2.0",
  specId: "spec_1",
  versionId: "ver_1",
  versionUrl: "https://example.test/files/o/api-pets-pr-9/ver_1/openapi.yaml",
  appUrl: "https://app.example.test/o/o/openapi/api-pets-pr-9/versions/ver_1",
  errorCode: "PARSE_ERROR",
  errors: ["line 3: bad"],
  changes: {
    against: "base commit",
    breaking: [
      { kind: "operation-removed", operation: "GET /pets", operationId: "listPets", message: "removed" },
    ],
    other: [{ kind: "description-changed", message: "info.description changed" }],
    allowed: [{ kind: "path-removed", operation: "/a", message: "removed" }],
  },
  durationMs: 1234,
  warnings: { count: 1, lines: ["api/pets.yaml:3:1: `responses` must be a mapping"] },
};

/** One record of every kind the run makes. */
const kinds: SpecResult[] = [
  full,
  { file: "a.yaml", slug: "a", status: "published", specId: "s", appUrl: "https://app.test/s", errors: [] },
  {
    file: "b.yaml",
    slug: "b",
    status: "unchanged",
    specVersion: "1",
    specId: "s",
    versionId: "v",
    versionUrl: "https://api.test/files/v",
    appUrl: "https://app.test/s/v",
    errors: [],
  },
  { file: "c.yaml", slug: "c", status: "failed", errorCode: "SYNTAX_ERROR", errors: ["c.yaml:2:1: bad"] },
  { file: "d.yaml", slug: "d", status: "timed-out", errorCode: "PROCESSING_TIMEOUT", errors: ["late"] },
  { file: "e.yaml", slug: "e", status: "submitted", operation: "create", specId: "s", errors: [] },
  { file: "f.yaml", slug: "f", status: "planned", operation: "unknown", errors: [] },
  { file: "g.yaml", slug: "g", status: "skipped", errors: ["Not uploaded: stopped"] },
  { file: "", slug: "old-pr-3", status: "deleted", operation: "delete", errors: [] },
  {
    file: "",
    slug: "",
    status: "failed",
    operation: "delete",
    errorCode: "HTTP_500",
    errors: ["Pruning: 500"],
  },
];

describe("results records", () => {
  const validate = resultsValidator();

  it("are valid under the schema, for every kind of result", () => {
    for (const result of kinds) expect(validate([toResultRecord(result)]), result.status).toEqual([]);
    expect(validate(toResultRecords(kinds))).toEqual([]);
    expect(validate([])).toEqual([]);
  });

  it("carry every field, null when it has no value, and leave out the duration", () => {
    const record = toResultRecord({
      file: "f.yaml",
      slug: "f",
      status: "planned",
      errors: [],
      durationMs: 5,
    });
    expect(record).toEqual({
      file: "f.yaml",
      slug: "f",
      status: "planned",
      operation: null,
      specVersion: null,
      specId: null,
      versionId: null,
      versionUrl: null,
      appUrl: null,
      errorCode: null,
      errors: [],
    });
    expect(Object.keys(toResultRecord(full)).sort()).toEqual(
      Object.keys(loadResultsSchema().$defs.result.properties).sort(),
    );
  });

  it("are refused by the schema when a field, a value or a guarantee is wrong", () => {
    const record = toResultRecord(full) as unknown as Record<string, unknown>;
    const { versionUrl: _, ...withoutVersionUrl } = record;
    expect(validate([withoutVersionUrl])).toContainEqual(expect.stringMatching(/versionUrl/));
    expect(validate([{ ...record, status: "done" }])).not.toEqual([]);
    expect(validate([{ ...record, durationMs: 3 }])).toContainEqual(expect.stringMatching(/additional/));
    expect(validate([{ ...record, versionUrl: "not a url" }])).toContainEqual(expect.stringMatching(/uri/));
    expect(validate([{ ...record, changes: { against: "base commit", breaking: [] } }])).not.toEqual([]);
    const changes = (record.changes ?? {}) as Record<string, unknown>;
    for (const wrong of [
      "GET /pets: removed",
      { kind: "operation-removed" },
      { kind: "operation-removed", message: "removed", line: "GET /pets: removed" },
      { kind: "operation-removed", operation: null, message: "removed" },
    ]) {
      expect(
        validate([{ ...record, changes: { ...changes, breaking: [wrong] } }]),
        JSON.stringify(wrong),
      ).not.toEqual([]);
    }
    expect(validate([{ ...record, status: "unchanged", appUrl: null }])).not.toEqual([]);
    expect(validate([{ ...record, status: "failed", errorCode: null }])).not.toEqual([]);
    expect(validate({ ...record })).not.toEqual([]);
  });

  it("come in path order, then by slug, in the Action's output as in the CLI's", () => {
    const records = toResultRecords([
      { file: "z.yaml", slug: "z", status: "published", errors: [] },
      { file: "", slug: "old-b", status: "deleted", errors: [] },
      { file: "B.yaml", slug: "b", status: "published", errors: [] },
      { file: "", slug: "old-a", status: "deleted", errors: [] },
      { file: "a.yaml", slug: "a", status: "published", errors: [] },
    ]);
    expect(records.map((r) => r.file || r.slug)).toEqual(["old-a", "old-b", "B.yaml", "a.yaml", "z.yaml"]);
    expect(JSON.parse(renderOutputs(kinds).results)).toEqual(toResultRecords(kinds));
  });

  it("share nothing with the run's results", () => {
    const result: SpecResult = { ...full, errors: ["x"] };
    const record = toResultRecord(result);
    record.errors.push("y");
    record.changes?.breaking.push({ kind: "z", message: "z" });
    const first = record.changes?.other[0];
    if (first) first.message = "changed";
    expect(result.errors).toEqual(["x"]);
    expect(full.changes.breaking).toHaveLength(1);
    expect(full.changes.other[0]?.message).toBe("info.description changed");
  });
});
