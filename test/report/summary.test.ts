import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { localFailure } from "../../src/core/publish/spec-results.ts";
import { finalFailureMessage, renderOutputs } from "../../src/core/report/outputs.ts";
import { headline, renderJobSummary } from "../../src/core/report/summary.ts";
import type { SpecResult } from "../../src/core/result.ts";

const published: SpecResult = {
  file: "api/pets.yaml",
  slug: "api-pets",
  status: "published",
  operation: "create",
  specVersion: "1.2.0",
  specId: "s1",
  versionId: "v9",
  versionUrl: "https://api.test/pets/v9",
  appUrl: "https://app.test/pets",
  errors: [],
};
const failed: SpecResult = {
  file: "billing|v2.yaml",
  slug: "billing-v2",
  status: "failed",
  errorCode: "PARSE_ERROR",
  errors: ["line 1\nbad <b>value</b>"],
};

describe("job summary", () => {
  it("has one row per spec with link, version and escaped error", () => {
    const markdown = renderJobSummary({
      mode: "publish",
      organizationId: "demo-org",
      results: [published, failed],
      durationMs: 1500,
    });
    expect(markdown).toContain("## GitBook OpenAPI: 1 of 2 specs failed");
    expect(markdown).toContain(
      "| `api/pets.yaml` | `api-pets` | ✅ published (new) | 1.2.0 | [v9](https://api.test/pets/v9) |   |",
    );
    expect(markdown).toContain("`billing\\|v2.yaml`");
    expect(markdown).toContain("PARSE\\_ERROR: line 1 bad &lt;b&gt;value&lt;/b&gt;");
    expect(markdown).not.toContain("<b>");
    expect(markdown).toContain("organization `demo-org`");
  });

  it("names a preview that only an earlier run recorded", () => {
    const markdown = renderJobSummary({
      mode: "cleanup",
      organizationId: "demo-org",
      results: [{ file: "", slug: "old-pr-3", status: "deleted", operation: "delete", errors: [] }],
      durationMs: 10,
    });
    expect(markdown).toContain("| no longer in the repository | `old-pr-3` | 🧹 deleted |");
  });

  it("headlines each kind of run", () => {
    expect(headline({ results: [published] })).toBe("all 1 spec published");
    expect(headline({ results: [] })).toBe("no OpenAPI specs found");
    expect(headline({ results: [], skippedReason: "fork" })).toBe("skipped");
    expect(headline({ results: [{ ...published, status: "planned" }] })).toBe("1 spec checked");
    expect(headline({ results: [{ ...published, status: "deleted" }] })).toBe("1 preview spec deleted");
  });
});

describe("outputs", () => {
  it("lists results in path order with every documented field, and counts", () => {
    const outputs = renderOutputs([failed, published, { ...failed, file: "z.yaml", status: "timed-out" }]);
    const parsed = JSON.parse(outputs.results) as Record<string, unknown>[];
    expect(parsed.map((r) => r.file)).toEqual(["api/pets.yaml", "billing|v2.yaml", "z.yaml"]);
    expect(Object.keys(parsed[0] ?? {}).sort()).toEqual(
      [
        "appUrl",
        "errorCode",
        "errors",
        "file",
        "operation",
        "slug",
        "specId",
        "specVersion",
        "status",
        "versionId",
        "versionUrl",
      ].sort(),
    );
    expect(outputs.published).toBe("1");
    expect(outputs.failed).toBe("2");
  });

  it("lists every failure with its reason in the final error", () => {
    expect(finalFailureMessage([published])).toBeUndefined();
    const message = finalFailureMessage([
      published,
      failed,
      {
        ...failed,
        file: "z.yaml",
        slug: "z",
        status: "timed-out",
        errorCode: "PROCESSING_TIMEOUT",
        errors: ["still pending"],
      },
    ]);
    expect(message).toContain("2 of 3 specs did not publish");
    expect(message).toContain(
      "- billing|v2.yaml (billing-v2): failed, PARSE_ERROR: line 1\nbad <b>value</b>",
    );
    expect(message).toContain("- z.yaml (z): timed-out, PROCESSING_TIMEOUT: still pending");
  });
});

describe("a file name holding a line break, in the final error", () => {
  it("stays on its failure's line: it cannot start a line that reads as another report", () => {
    const file = "api/a.yaml\nerror: forged.yaml";
    const result = localFailure(
      {
        file,
        slug: "a",
        problems: [{ code: "INVALID_SPEC", message: "bad", location: { file, line: 3, column: 5 } }],
      },
      new MemoryLogger(),
    );
    const message = finalFailureMessage([result]) ?? "";
    const lines = message.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("api/a.yaml%0Aerror: forged.yaml:3:5: bad");
  });
});
