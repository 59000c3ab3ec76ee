import { describe, expect, it } from "vitest";
import {
  AZURE_DEVOPS_COMMENT_LIMIT,
  AZURE_DEVOPS_REVIEW,
  renderReviewComment,
} from "../../src/core/report/comment.ts";
import { defuseAzureDevOpsLine } from "../../src/core/report/review-host.ts";
import type { SpecResult } from "../../src/core/result.ts";

const result = (overrides: Partial<SpecResult> = {}): SpecResult => ({
  file: "specs/pets.yaml",
  slug: "pets-pr-5",
  status: "published",
  errors: [],
  ...overrides,
});

const render = (results: SpecResult[]) =>
  renderReviewComment({
    key: "default",
    host: AZURE_DEVOPS_REVIEW,
    results,
    mode: "preview",
    pullRequestNumber: 5,
    state: { previews: results.map((r) => r.slug) },
  });

describe("the comment on Azure DevOps", () => {
  it("names the pull request as !N, Azure Repos' own reference", () => {
    expect(render([result()])).toContain("(preview for !5)");
  });

  it("breaks work item and pull request links in text from outside, not in its own words", () => {
    const body = render([result({ errors: ["fixes #12 and !3, ask @lead"] })]);
    expect(body).toContain("\\#&#8203;12");
    expect(body).toContain("\\!&#8203;3");
    expect(body).toContain("&#64;lead");
    expect(defuseAzureDevOpsLine("(preview for !5)")).toBe("(preview for !5)");
  });

  it("fits Azure DevOps' 150,000-character limit", () => {
    const many = Array.from({ length: 4_000 }, (_, i) =>
      result({
        file: `specs/${String(i).padStart(5, "0")}.yaml`,
        slug: `s${i}-pr-5`,
        errors: ["x".repeat(40)],
      }),
    );
    const body = render(many);
    expect(body.length).toBeLessThanOrEqual(AZURE_DEVOPS_COMMENT_LIMIT);
    expect(body).toMatch(
      /not shown: the comment would exceed Azure DevOps's size limit\. See the pipeline run/,
    );
  });
});
