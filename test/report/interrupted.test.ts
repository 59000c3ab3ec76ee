/**
 * A run its host stopped (a cancelled job) as the reports show it: the job summary's headline and its
 * note, the review comment's headline and the previews it records, the JUnit report. Pure renderers.
 */
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { readCommentState } from "../../src/core/report/comment-state.ts";
import { renderJUnit } from "../../src/core/report/junit.ts";
import { nextRecordedPreviews, reviewCommentBody } from "../../src/core/report/review-comment.ts";
import { GITHUB_REVIEW } from "../../src/core/report/review-host.ts";
import { partialCounts } from "../../src/core/report/status.ts";
import { renderJobSummary } from "../../src/core/report/summary.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { cancelledResult, Interrupted, notStartedResult } from "../../src/core/run/stopped.ts";

const stop = (() => {
  const controller = new AbortController();
  controller.abort(new Interrupted("SIGINT"));
  return controller.signal;
})();

const results: SpecResult[] = [
  {
    file: "a.yaml",
    slug: "a-pr-7",
    status: "published",
    specId: "spec_a",
    appUrl: "https://app/a",
    errors: [],
  },
  {
    file: "b.yaml",
    slug: "b-pr-7",
    status: "failed",
    errorCode: "SYNTAX_ERROR",
    errors: ["b.yaml:1:1: bad"],
  },
  cancelledResult("c.yaml", "c-pr-7", stop),
  notStartedResult("d.yaml", "d-pr-7", stop),
];

describe("a run stopped by a signal", () => {
  it("is counted by what became of each spec", () => {
    expect(partialCounts(results)).toBe("1 published, 1 failed, 1 cancelled, 1 not started");
    expect(partialCounts([])).toBe("nothing started");
    expect(results[2]?.errors).toEqual([
      "Cancelled: interrupted by SIGINT before its work ended; GitBook may hold what was uploaded before.",
    ]);
  });

  it("headlines the job summary with the signal and the counts, one row per spec", () => {
    const summary = renderJobSummary({
      mode: "preview",
      organizationId: "org",
      results,
      durationMs: 1000,
      interrupted: "interrupted by SIGINT",
    });
    expect(summary.split("\n")[0]).toBe(
      "## GitBook OpenAPI: interrupted by SIGINT: 1 published, 1 failed, 1 cancelled, 1 not started",
    );
    expect(summary).toContain("> The run was interrupted by SIGINT (a cancelled job)");
    expect(summary).not.toContain("stopped before any upload");
    expect(summary).toContain("| `c.yaml` | `c-pr-7` | 🛑 cancelled |");
    expect(summary).toContain("| `d.yaml` | `d-pr-7` | ⏭️ skipped |");
  });

  it("headlines the comment, and records the published preview and the one cancelled under way", () => {
    const run = { mode: "preview" as const, results, interrupted: "interrupted by SIGINT" };
    const { body, previews } = reviewCommentBody({
      key: "default",
      host: GITHUB_REVIEW,
      number: 7,
      run,
      earlier: ["old-pr-7"],
    });
    expect(body.split("\n")[1]).toBe(
      "### 🛑 Interrupted by SIGINT (preview for #7): 1 published, 1 failed, 1 cancelled, 1 not started",
    );
    expect(previews).toEqual(["a-pr-7", "c-pr-7", "old-pr-7"]);
    expect(readCommentState(body)?.previews).toEqual(previews);
    // A spec that did not start, or failed before its upload, has no preview to record.
    expect(
      nextRecordedPreviews(
        { mode: "preview", results: results.slice(1, 2).concat(results[3] as SpecResult) },
        [],
      ),
    ).toEqual([]);
  });

  it("reports a cancelled spec as skipped in JUnit, with why", () => {
    const xml = renderJUnit(results);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    expect(suite["@_skipped"]).toBe("2");
    expect(suite["@_failures"]).toBe("1");
    expect(suite.testcase[2].skipped["@_message"]).toMatch(/^Cancelled: interrupted by SIGINT/);
  });
});
