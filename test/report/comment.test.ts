import { describe, expect, it } from "vitest";
import { commentMarker, readCommentState } from "../../src/adapters/github/comment-marker.ts";
import {
  GITHUB_COMMENT_LIMIT,
  type PullRequestCommentInput,
  renderPullRequestComment,
} from "../../src/core/report/comment.ts";
import type { SpecResult } from "../../src/core/result.ts";

function result(overrides: Partial<SpecResult> = {}): SpecResult {
  return { file: "specs/pets.yaml", slug: "pets-pr-12", status: "published", errors: [], ...overrides };
}

function input(overrides: Partial<PullRequestCommentInput> = {}): PullRequestCommentInput {
  return {
    key: "default",
    results: [result()],
    mode: "preview",
    pullRequestNumber: 12,
    state: { previews: ["pets-pr-12"] },
    ...overrides,
  };
}

function firstHeading(body: string): string | undefined {
  return body.split("\n").find((line) => line.startsWith("### "));
}

/** The table rows of a rendered body, without header and separator. */
function rows(body: string): string[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| File") && !line.startsWith("| ---"));
}

describe("renderPullRequestComment", () => {
  it("headlines a successful preview, publish and check run", () => {
    const three = [result({ file: "a.yaml" }), result({ file: "b.yaml" }), result({ file: "c.yaml" })];
    expect(firstHeading(renderPullRequestComment(input({ results: three })))).toBe(
      "### ✅ 3 OpenAPI specs published to GitBook (preview for #12)",
    );
    expect(firstHeading(renderPullRequestComment(input({ mode: "publish" })))).toBe(
      "### ✅ 1 OpenAPI spec published to GitBook",
    );
    expect(
      firstHeading(
        renderPullRequestComment(input({ mode: "check", results: [result({ status: "planned" })] })),
      ),
    ).toBe("### ✅ 1 OpenAPI spec checked; nothing published (check mode)");
  });

  it("headlines failures, cleanup and skipped runs", () => {
    const mixed = [
      result({ file: "a.yaml" }),
      result({ file: "b.yaml", status: "failed" }),
      result({ file: "c.yaml" }),
    ];
    expect(firstHeading(renderPullRequestComment(input({ results: mixed })))).toBe(
      "### ❌ 1 of 3 specs failed",
    );
    expect(
      firstHeading(
        renderPullRequestComment(input({ results: [], cleanup: { deleted: ["pets-pr-12"], failed: [] } })),
      ),
    ).toBe("### 🧹 Preview specs of #12 deleted");
    expect(
      firstHeading(
        renderPullRequestComment(
          input({ results: [], cleanup: { deleted: ["a"], failed: [{ slug: "b", error: "HTTP 500" }] } }),
        ),
      ),
    ).toBe("### ⚠️ 1 of 2 preview specs of #12 could not be deleted");
  });

  it("counts the validation findings a spec published with as warnings", () => {
    const body = renderPullRequestComment(
      input({
        results: [
          result({
            file: "a.yaml",
            warnings: { count: 298, lines: ["a.yaml:7:9: `responses` has the key `2xx`"] },
          }),
          result({ file: "b.yaml" }),
        ],
      }),
    );
    const [a, b] = rows(body);
    expect(a).toMatch(/published, 298 warnings \|/);
    expect(b).not.toMatch(/warning/);
  });

  it("links the latest version, falling back to the app URL, and shows errors", () => {
    const body = renderPullRequestComment(
      input({
        results: [
          result({ file: "a.yaml", versionUrl: "https://api.gitbook.com/v/1", specVersion: "1.2.0" }),
          result({ file: "b.yaml", appUrl: "https://app.gitbook.com/o/x/openapi/b" }),
          result({
            file: "c.yaml",
            status: "failed",
            errorCode: "INVALID_SPEC",
            errors: ["bad ref", "bad type"],
          }),
          result({ file: "d.yaml", versionUrl: "javascript:alert(1)" }),
        ],
      }),
    );
    const [a, b, c, d] = rows(body);
    expect(a).toContain("[1.2.0](https://api.gitbook.com/v/1)");
    expect(b).toContain("[view](https://app.gitbook.com/o/x/openapi/b)");
    expect(c).toContain("❌ failed");
    expect(c).toContain("**INVALID\\_SPEC**<br>bad ref<br>bad type");
    expect(d).not.toContain("javascript");
  });

  it("escapes user-controlled text so it cannot break the table or the hidden comments", () => {
    const body = renderPullRequestComment(
      input({
        results: [
          result({
            file: "evil|name <b>.yaml",
            status: "failed",
            errors: ["line one\nline | two --> <!-- @octocat [x](http://e)"],
          }),
        ],
        state: { previews: ["a-->b", "<!--c"] },
      }),
    );
    const [row] = rows(body);
    expect(row).toBeDefined();
    // Six unescaped pipes: the cell borders of five columns.
    expect(row?.match(/(?<!\\)\|/g)).toHaveLength(6);
    expect(row).toContain("evil\\|name &lt;b&gt;.yaml");
    expect(row).not.toContain("\n");
    expect(row).not.toContain("@octocat");
    expect(row).not.toContain("](http://e)");
    // Only our own two hidden comments open and close.
    expect(body.match(/<!--/g)).toHaveLength(2);
    expect(body.match(/-->/g)).toHaveLength(2);
    expect(readCommentState(body)).toEqual({ previews: ["a-->b", "<!--c"] });
  });

  it("truncates long messages and keeps the body under GitHub's limit", () => {
    const long = "x".repeat(5_000);
    const many = Array.from({ length: 2_000 }, (_, i) =>
      result({ file: `specs/${String(i).padStart(4, "0")}.yaml`, status: "failed", errors: [long, long] }),
    );
    const body = renderPullRequestComment(input({ results: many }));
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).not.toContain("x".repeat(301));
    expect(body).toMatch(/_\d+ more specs not shown: the comment would exceed GitHub's size limit/);
    expect(rows(body).length).toBeLessThan(2_000);
    expect(rows(body).length).toBeGreaterThan(10);
    expect(readCommentState(body)).toEqual({ previews: ["pets-pr-12"] });
  });

  it("is deterministic and independent of the order of results", () => {
    const results = [result({ file: "b.yaml" }), result({ file: "a.yaml" })];
    const first = renderPullRequestComment(input({ results }));
    const second = renderPullRequestComment(input({ results: [...results].reverse() }));
    expect(second).toBe(first);
    expect(rows(first)[0]).toContain("a.yaml");
  });

  it("starts with the marker, round-trips the state, and leaves the run's link out (it changes every run)", () => {
    const body = renderPullRequestComment(
      input({ key: "docs", state: { previews: ["a-pr-12", "b-pr-12"] } }),
    );
    expect(body.startsWith(commentMarker("docs"))).toBe(true);
    expect(body).not.toContain("View the workflow run");
    expect(readCommentState(body, "docs")).toEqual({ previews: ["a-pr-12", "b-pr-12"] });
    expect(readCommentState(body, "default")).toBeUndefined();
  });
});

describe("the API changes section", () => {
  it("stays within the comment limit however many specs changed, and says what it left out", () => {
    const changed = Array.from({ length: 400 }, (_, i) => ({
      ...result({ file: `specs/s${i}.yaml`, slug: `s${i}-pr-12` }),
      changes: {
        against: "base commit" as const,
        breaking: Array.from({ length: 20 }, (_, j) => ({
          kind: "operation-removed",
          operation: `GET /things/${j}/${"x".repeat(150)}`,
          message: "removed",
        })),
        other: [],
        allowed: [],
      },
    }));
    const body = renderPullRequestComment(input({ results: changed }));
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).toContain("#### API changes");
    expect(body).toMatch(
      /_Not shown here to keep this comment under GitHub's limit of 65,536 characters: \d+ breaking changes in \d+ operations\. The job summary/,
    );
  });
});
