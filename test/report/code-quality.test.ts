/**
 * The Code Quality report against the fields GitLab documents for `artifacts:reports:codequality`
 * (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format: an array of objects
 * with `description`, `check_name`, `fingerprint`, `severity` one of info, minor, major, critical,
 * blocker, and `location.path` with `location.lines.begin`), and its fingerprints: one per finding,
 * the same when only lines move (a property, fast-check with a fixed seed).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codeQualityIssues,
  type LoggedFinding,
  renderCodeQuality,
} from "../../src/core/report/code-quality.ts";
import type { SpecChange, SpecResult } from "../../src/core/result.ts";

const GITLAB_CODE_QUALITY = {
  type: "array",
  items: {
    type: "object",
    required: ["description", "check_name", "fingerprint", "severity", "location"],
    properties: {
      description: { type: "string", minLength: 1 },
      check_name: { type: "string", minLength: 1 },
      fingerprint: { type: "string", minLength: 1 },
      severity: { enum: ["info", "minor", "major", "critical", "blocker"] },
      location: {
        type: "object",
        required: ["path", "lines"],
        properties: {
          path: { type: "string", minLength: 1 },
          lines: {
            type: "object",
            required: ["begin"],
            properties: { begin: { type: "integer", minimum: 1 } },
          },
        },
      },
    },
  },
};

const change = (over: Partial<SpecChange>): SpecChange => ({
  kind: "operation-removed",
  operation: "DELETE /pets/{id}",
  message: "operation removed",
  pointer: "#/paths/~1pets~1{id}/delete",
  file: "api/paths/pets.yaml",
  line: 12,
  ...over,
});

const result = (changes: Partial<NonNullable<SpecResult["changes"]>>): SpecResult => ({
  file: "api/openapi.yaml",
  slug: "pets",
  status: "published",
  errors: [],
  changes: { against: "base commit", breaking: [], other: [], allowed: [], ...changes },
});

describe("the Code Quality report", () => {
  it("holds validation findings and breaking changes in the fields GitLab documents", () => {
    const logged: LoggedFinding[] = [
      {
        level: "error",
        message: "`info.title` must be a string",
        location: { file: "api/openapi.yaml", line: 3 },
      },
      { level: "warning", message: "must NOT have additional properties", location: { file: "api/x.yaml" } },
    ];
    const text = renderCodeQuality(
      [
        result({
          breaking: [change({})],
          allowed: [change({ kind: "parameter-removed", message: "query parameter q removed" })],
          other: [change({ kind: "operation-added", message: "operation added" })],
        }),
      ],
      logged,
      ["api/old.yaml"],
    );
    const issues = JSON.parse(text) as ReturnType<typeof codeQualityIssues>;
    const validate = new Ajv2020({ strict: true }).compile(GITLAB_CODE_QUALITY);
    expect(validate(issues), JSON.stringify(validate.errors)).toBe(true);
    expect(issues.map((issue) => [issue.check_name, issue.severity, issue.location])).toEqual([
      ["gitbook-openapi/validation-error", "major", { path: "api/openapi.yaml", lines: { begin: 3 } }],
      ["gitbook-openapi/validation-warning", "minor", { path: "api/x.yaml", lines: { begin: 1 } }],
      [
        "gitbook-openapi/operation-removed",
        "critical",
        { path: "api/paths/pets.yaml", lines: { begin: 12 } },
      ],
      ["gitbook-openapi/parameter-removed", "info", { path: "api/paths/pets.yaml", lines: { begin: 12 } }],
      ["gitbook-openapi/spec-removed", "critical", { path: "api/old.yaml", lines: { begin: 1 } }],
    ]);
    expect(issues[2]?.description).toBe("Breaking API change (pets): DELETE /pets/{id}: operation removed");
  });

  const word = fc.stringMatching(/^[a-z{}/ ]{1,12}$/);
  const changes = fc.array(
    fc.record({
      kind: fc.constantFrom("operation-removed", "type-changed", "parameter-removed"),
      operation: word,
      message: word,
      pointer: word.map((text) => `#/paths/${text}`),
      file: fc.constantFrom("a.yaml", "b/c.yaml"),
      line: fc.integer({ min: 1, max: 5000 }),
    }),
    { maxLength: 30 },
  );

  it("gives each finding its own fingerprint, the same when only lines move", () => {
    fc.assert(
      fc.property(changes, fc.integer({ min: -50, max: 500 }), (breaking, shift) => {
        const before = codeQualityIssues([result({ breaking })], []);
        expect(new Set(before.map((issue) => issue.fingerprint)).size).toBe(before.length);
        const moved = breaking.map((c) => ({ ...c, line: Math.max(1, c.line + shift) }));
        const after = codeQualityIssues([result({ breaking: moved })], []);
        expect(after.map((issue) => issue.fingerprint)).toEqual(before.map((issue) => issue.fingerprint));
      }),
      { seed: 29, numRuns: 300 },
    );
  });

  it("gives a finding another fingerprint when what it is changes", () => {
    const [a] = codeQualityIssues([result({ breaking: [change({})] })], []);
    const [b] = codeQualityIssues([result({ breaking: [change({ pointer: "#/paths/~1cats/delete" })] })], []);
    const [c] = codeQualityIssues([{ ...result({ breaking: [change({})] }), slug: "pets-v2" }], []);
    expect(new Set([a?.fingerprint, b?.fingerprint, c?.fingerprint]).size).toBe(3);
  });
});
