import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  GITHUB_REVIEW,
  GITLAB_NOTE_LIMIT,
  GITLAB_REVIEW,
  type PullRequestCommentInput,
  renderReviewComment,
} from "../../src/core/report/comment.ts";
import { commentMarker } from "../../src/core/report/comment-state.ts";
import { reviewCommentBody } from "../../src/core/report/review-comment.ts";
import { defuseGitLabLine } from "../../src/core/report/review-host.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { isPreviewSlugOf, previewSlug } from "../../src/core/slugs/preview.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../src/core/slugs/rule.ts";

function result(overrides: Partial<SpecResult> = {}): SpecResult {
  return { file: "specs/pets.yaml", slug: "pets-mr-12", status: "published", errors: [], ...overrides };
}

function input(overrides: Partial<PullRequestCommentInput> = {}): PullRequestCommentInput {
  return {
    key: "default",
    host: GITLAB_REVIEW,
    results: [result()],
    mode: "preview",
    pullRequestNumber: 12,
    state: { previews: ["pets-mr-12"] },
    ...overrides,
  };
}

const heading = (body: string) => body.split("\n").find((line) => line.startsWith("### "));

describe("the comment on GitLab", () => {
  it("speaks of merge requests as !IID and carries the same marker", () => {
    const body = renderReviewComment(input());
    expect(heading(body)).toBe("### ✅ 1 OpenAPI spec published to GitBook (preview for !12)");
    expect(body.startsWith(commentMarker("default"))).toBe(true);
    expect(heading(renderReviewComment(input({ results: [], cleanup: { deleted: [], failed: [] } })))).toBe(
      "### 🧹 No preview specs of !12 to delete",
    );
  });

  it("keeps GitHub's words by default", () => {
    expect(heading(renderReviewComment(input({ host: undefined })))).toContain("(preview for #12)");
    expect(heading(renderReviewComment(input({ host: GITHUB_REVIEW })))).toContain("(preview for #12)");
  });

  it("fits GitLab's 1,000,000-character note limit, far above GitHub's", () => {
    const many = Array.from({ length: 12_000 }, (_, i) =>
      result({
        file: `specs/${String(i).padStart(5, "0")}.yaml`,
        slug: `s${i}-mr-12`,
        errors: ["x".repeat(40)],
      }),
    );
    const gitlab = renderReviewComment(input({ results: many }));
    const github = renderReviewComment(input({ results: many, host: GITHUB_REVIEW }));
    expect(gitlab.length).toBeLessThanOrEqual(GITLAB_NOTE_LIMIT);
    expect(gitlab.length).toBeGreaterThan(65_536);
    expect(gitlab).toMatch(
      /more specs not shown: the comment would exceed GitLab's size limit\. See the pipeline/,
    );
    expect(github.length).toBeLessThanOrEqual(65_536);
  });

  it("defuses mentions, references and quick actions in text from outside, not in its own words", () => {
    const hostile = result({
      file: "specs/@all #1 !2 ~bug &3.yaml",
      errorCode: "@maintainers",
      errors: ["\n/merge\n/close", "see group/project#4 and !5, ping @root"],
    });
    const body = renderReviewComment(input({ results: [hostile] }));
    const lines = body.split("\n");
    expect(lines.filter((line) => /^\s*\//.test(line))).toEqual([]);
    expect(body).not.toMatch(/&#64;(?!&#8203;)/);
    expect(body).not.toMatch(/\\[#!~](?!&#8203;)/);
    expect(body).not.toMatch(/&amp;(?!&#8203;)/);
    expect(body).toContain("&#64;&#8203;all");
    expect(body).toContain("\\#&#8203;4");
    // Its own reference to the merge request stays one.
    const own = renderReviewComment(input());
    expect(own).toContain("(preview for !12)");
    expect(own).not.toContain("&#8203;");
  });

  it("writes a line's leading / as an entity, so it is no quick action", () => {
    expect(defuseGitLabLine("/merge")).toBe("&#47;merge");
    expect(defuseGitLabLine("  /close now")).toBe("  &#47;close now");
    expect(defuseGitLabLine("| a/b |")).toBe("| a/b |");
  });

  it("leaves GitHub's text as it was", () => {
    const hostile = result({ errors: ["ping @root about #4"] });
    const body = renderReviewComment(input({ results: [hostile], host: GITHUB_REVIEW }));
    expect(body).toContain("ping &#64;root about \\#4");
    expect(body).not.toContain("&#8203;");
  });

  it("records the previews of a run (reviewCommentBody)", () => {
    const { body, previews } = reviewCommentBody({
      key: "default",
      host: GITLAB_REVIEW,
      number: 12,
      run: { mode: "preview", results: [result({ specId: "a" })] },
      earlier: ["old-mr-12"],
    });
    expect(previews).toEqual(["old-mr-12", "pets-mr-12"]);
    expect(body).toContain("(preview for !12)");
  });
});

describe("merge request preview slugs", () => {
  it("end in -mr-<IID>, and pull request ones still in -pr-<N>", () => {
    expect(previewSlug("payments", 42, "merge-request")).toBe("payments-mr-42");
    expect(previewSlug("payments", 42)).toBe("payments-pr-42");
    expect(isPreviewSlugOf("payments-mr-42", 42, "merge-request")).toBe(true);
    expect(isPreviewSlugOf("payments-pr-42", 42, "merge-request")).toBe(false);
    expect(isPreviewSlugOf("payments-mr-42", 42)).toBe(false);
    expect(isPreviewSlugOf("payments-mr-142", 42, "merge-request")).toBe(false);
    expect(() => previewSlug("a", 0, "merge-request")).toThrow(/merge request IID is a positive integer/);
  });

  it("always yield a valid slug of at most 100 characters (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (base, iid) => {
        const slug = previewSlug(base, iid, "merge-request");
        expect(slug).toMatch(SLUG_PATTERN);
        expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
        expect(isPreviewSlugOf(slug, iid, "merge-request")).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
