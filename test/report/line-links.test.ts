/**
 * The review comment's links to the lines of each change: each host's page format, file names from the
 * repository (hostile ones included: spaces, `#`, `?`, `..`, brackets, unicode) encoded so that they
 * cannot leave their path segment nor the Markdown link, a property (fast-check, fixed seed); plain
 * `file:line` without a builder; the comment's size cap kept with links; and the builders the command
 * line picks from Bitbucket's and Azure Pipelines' variables.
 */
import { tmpdir } from "node:os";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  azureReposLineUrl,
  bitbucketLineUrl,
  encodedFilePath,
  githubLineUrl,
  gitlabLineUrl,
} from "../../src/adapters/review-host/line-urls.ts";
import { renderChanges } from "../../src/core/report/changes.ts";
import { GITHUB_COMMENT_LIMIT, renderReviewComment } from "../../src/core/report/comment.ts";
import { type LineUrl, placeLinks } from "../../src/core/report/line-links.ts";
import type { SpecChange, SpecResult } from "../../src/core/result.ts";
import { readCiRun } from "../../src/hosts/cli/ci.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const BASE_SHA = "fedcba9876543210fedcba9876543210fedcba98";

const github = githubLineUrl("https://github.com", "acme", "cafe") as LineUrl;
const gitlab = gitlabLineUrl("https://gitlab.example/group/sub/cafe") as LineUrl;
const bitbucket = bitbucketLineUrl("https://bitbucket.org", "acme", "cafe") as LineUrl;
const azure = azureReposLineUrl("https://dev.azure.com/fabrikam/", "Fabri kam", "cafe") as LineUrl;

function result(breaking: SpecChange[], file = "api/openapi.yaml"): SpecResult {
  return {
    file,
    slug: "openapi-pr-5",
    status: "published",
    errors: [],
    changes: { against: "base commit", breaking, other: [], allowed: [] },
  };
}

describe("each host's page of a line", () => {
  it("writes GitHub's, GitLab's, Bitbucket's and Azure Repos' formats", () => {
    const file = "api/paths/orders_{orderId}.yaml";
    expect(github(SHA, file, 12)).toBe(
      `https://github.com/acme/cafe/blob/${SHA}/api/paths/orders_%7BorderId%7D.yaml#L12`,
    );
    expect(gitlab(SHA, file, 12)).toBe(
      `https://gitlab.example/group/sub/cafe/-/blob/${SHA}/api/paths/orders_%7BorderId%7D.yaml#L12`,
    );
    expect(bitbucket(SHA, file, 12)).toBe(
      `https://bitbucket.org/acme/cafe/src/${SHA}/api/paths/orders_%7BorderId%7D.yaml#lines-12`,
    );
    expect(azure(SHA, file, 12)).toBe(
      `https://dev.azure.com/fabrikam/Fabri%20kam/_git/cafe?path=%2Fapi%2Fpaths%2Forders_%7BorderId%7D.yaml&version=GC${SHA}&line=12&lineEnd=13&lineStartColumn=1&lineEndColumn=1`,
    );
  });

  it("names no page for an address, commit or line it cannot trust", () => {
    expect(githubLineUrl("javascript:alert(1)", "a", "b")).toBeUndefined();
    expect(gitlabLineUrl("https://user:secret@gitlab.example/p")).toBeUndefined();
    expect(gitlabLineUrl("https://gitlab.example/p?x=1")).toBeUndefined();
    expect(gitlabLineUrl(undefined)).toBeUndefined();
    expect(github("main", "a.yaml", 1)).toBeUndefined();
    expect(github("../../x", "a.yaml", 1)).toBeUndefined();
    expect(github(SHA, "a.yaml", 0)).toBeUndefined();
    expect(github(SHA, "a.yaml", 1.5)).toBeUndefined();
    // An owner is one segment, whatever it holds.
    expect(githubLineUrl("https://github.com", "a/../b", "c")?.(SHA, "x.yaml", 1)).toBe(
      `https://github.com/a%2F..%2Fb/c/blob/${SHA}/x.yaml#L1`,
    );
  });
});

/** Names a repository may hold, hostile ones weighted in: spaces, `#`, `?`, `%`, dots, brackets, unicode. */
const segment = fc.oneof(
  fc.constantFrom(
    "..",
    ".",
    "",
    " ",
    "a b",
    "#L1",
    "?x=1",
    "%2e%2e",
    "%2F",
    "](x)",
    ")",
    "`",
    "<b>",
    "é",
    "🐱",
    "\\",
  ),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 4 }),
);
const fileName = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
const CLEAN = (file: string) =>
  file.split("/").every((part) => part !== "" && part !== "." && part !== "..") &&
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(file);

describe("a hostile file name", () => {
  it("stays in its path segments, or gets no link", () => {
    fc.assert(
      fc.property(fileName, fc.integer({ min: 1, max: 1_000_000 }), (file, line) => {
        expect(encodedFilePath(file) !== undefined).toBe(CLEAN(file));
        if (!CLEAN(file)) {
          for (const build of [github, gitlab, bitbucket, azure])
            expect(build(SHA, file, line)).toBeUndefined();
          return;
        }
        const paths: [LineUrl, string, string][] = [
          [github, `/acme/cafe/blob/${SHA}/`, `#L${line}`],
          [gitlab, `/group/sub/cafe/-/blob/${SHA}/`, `#L${line}`],
          [bitbucket, `/acme/cafe/src/${SHA}/`, `#lines-${line}`],
        ];
        for (const [build, prefix, hash] of paths) {
          const url = new URL(build(SHA, file, line) as string);
          expect(url.pathname.startsWith(prefix)).toBe(true);
          expect(url.search).toBe("");
          expect(url.hash).toBe(hash);
          const rest = url.pathname.slice(prefix.length).split("/").map(decodeURIComponent);
          expect(rest).toEqual(file.split("/"));
        }
        const page = new URL(azure(SHA, file, line) as string);
        expect(page.pathname).toBe("/fabrikam/Fabri%20kam/_git/cafe");
        expect(page.searchParams.get("path")).toBe(`/${file}`);
        expect(page.searchParams.get("version")).toBe(`GC${SHA}`);
        expect(page.searchParams.get("line")).toBe(String(line));
        expect(page.hash).toBe("");
      }),
      { seed: 2929, numRuns: 400 },
    );
  });

  it("cannot end the Markdown link nor the comment's line", () => {
    const links = placeLinks({ lineUrl: github, headCommit: SHA }, BASE_SHA);
    fc.assert(
      fc.property(fileName.filter(CLEAN), fc.integer({ min: 1, max: 99_999 }), (file, line) => {
        const change: SpecChange = {
          kind: "operation-removed",
          operation: "GET /x",
          message: "removed",
          file,
          line,
        };
        const lines = renderChanges([result([change])], [], undefined, links);
        const changeLine = lines.find((text) => text.startsWith("  - removed")) as string;
        // `  - removed ([`<place>`](<url>))`: the destination holds nothing that ends it.
        const match = /^ {2}- removed \(\[`[^`]*`\]\(([^\s()<>[\]`\\|]+)\)\)$/.exec(changeLine);
        expect(match, changeLine).not.toBeNull();
        const url = new URL(match?.[1] as string);
        expect(url.hash).toBe(`#L${line}`);
        expect(url.pathname.split("/").slice(5).map(decodeURIComponent)).toEqual(file.split("/"));
      }),
      { seed: 29, numRuns: 300 },
    );
  });
});

describe("the comment's places", () => {
  const breaking: SpecChange = {
    kind: "required-parameter-added",
    operation: "GET /orders/{orderId}",
    message: "required query parameter expand added",
    file: "api/paths/orders_{orderId}.yaml",
    line: 7,
  };
  const removed: SpecChange = {
    kind: "operation-removed",
    operation: "GET /order-items",
    message: "removed",
    file: "api/openapi.yaml",
    line: 10,
    baseFile: "api/paths/order-items.yaml",
    baseLine: 2,
  };

  it("links the head's place at the head commit and the base's at the base commit", () => {
    const lines = renderChanges(
      [result([breaking, removed])],
      [],
      undefined,
      placeLinks({ lineUrl: github, headCommit: SHA }, BASE_SHA),
    );
    expect(lines).toContain(
      `  - required query parameter expand added ([\`api/paths/orders_{orderId}.yaml:7\`](https://github.com/acme/cafe/blob/${SHA}/api/paths/orders_%7BorderId%7D.yaml#L7))`,
    );
    expect(lines).toContain(
      `  - removed ([\`api/openapi.yaml:10\`](https://github.com/acme/cafe/blob/${SHA}/api/openapi.yaml#L10); base: [\`api/paths/order-items.yaml:2\`](https://github.com/acme/cafe/blob/${BASE_SHA}/api/paths/order-items.yaml#L2))`,
    );
  });

  it("writes plain places without a builder, or without the commit", () => {
    const plain = renderChanges([result([breaking, removed])], []);
    expect(plain).toContain("  - removed (`api/openapi.yaml:10`; base: `api/paths/order-items.yaml:2`)");
    const headOnly = renderChanges(
      [result([removed])],
      [],
      undefined,
      placeLinks({ lineUrl: github, headCommit: SHA }, undefined),
    );
    expect(headOnly.join("\n")).toContain("; base: `api/paths/order-items.yaml:2`)");
  });

  it("keeps the comment under the host's limit with links, leaving whole operations out", () => {
    const changes = Array.from({ length: 3000 }, (_, i) => ({
      ...breaking,
      operation: `GET /things/${i}`,
      file: `api/paths/${"deep/".repeat(20)}thing-${i}.yaml`,
      line: i + 1,
    }));
    const body = renderReviewComment({
      key: "default",
      results: [result(changes)],
      mode: "preview",
      pullRequestNumber: 5,
      state: { previews: [] },
      links: placeLinks({ lineUrl: github, headCommit: SHA }, BASE_SHA),
    });
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).toContain("/blob/");
    expect(body).toMatch(/_… \d+ more breaking changes in \d+ operations, not shown here_/);
    const plain = renderReviewComment({
      key: "default",
      results: [result(changes)],
      mode: "preview",
      pullRequestNumber: 5,
      state: { previews: [] },
    });
    const shown = (text: string) => (text.match(/^- \*\*GET/gm) ?? []).length;
    expect(shown(body)).toBeLessThan(shown(plain));
    expect(shown(body)).toBeGreaterThan(0);
  });
});

describe("each CI's line links, as the command line reads them", () => {
  const HEAD = "c".repeat(40);
  const file = "api/a b.yaml";

  it("on Bitbucket Pipelines: the workspace's repository at BITBUCKET_COMMIT", () => {
    const ci = readCiRun(
      {
        BITBUCKET_BUILD_NUMBER: "42",
        BITBUCKET_WORKSPACE: "acme",
        BITBUCKET_REPO_SLUG: "api",
        BITBUCKET_COMMIT: HEAD,
        BITBUCKET_CLONE_DIR: tmpdir(),
      },
      tmpdir(),
      undefined,
    );
    const links = placeLinks(ci.lineLinks(), undefined);
    expect(links?.head?.(file, 3)).toBe(`https://bitbucket.org/acme/api/src/${HEAD}/api/a%20b.yaml#lines-3`);
  });

  it("on Azure Pipelines: the Azure Repos repository at the pull request's source commit", () => {
    const ci = readCiRun(
      {
        TF_BUILD: "True",
        BUILD_REPOSITORY_PROVIDER: "TfsGit",
        SYSTEM_COLLECTIONURI: "https://dev.azure.com/fabrikam/",
        SYSTEM_TEAMPROJECT: "Widgets",
        BUILD_REPOSITORY_ID: "7a8b",
        BUILD_REPOSITORY_NAME: "api",
        BUILD_SOURCEVERSION: "d".repeat(40),
        SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD,
      },
      tmpdir(),
      undefined,
    );
    expect(placeLinks(ci.lineLinks(), undefined)?.head?.(file, 3)).toBe(
      `https://dev.azure.com/fabrikam/Widgets/_git/api?path=%2Fapi%2Fa%20b.yaml&version=GC${HEAD}&line=3&lineEnd=4&lineStartColumn=1&lineEndColumn=1`,
    );
    // A repository elsewhere (GitHub, Bitbucket) built by Azure Pipelines: no Azure Repos page.
    const elsewhere = readCiRun(
      { TF_BUILD: "True", BUILD_REPOSITORY_PROVIDER: "GitHub" },
      tmpdir(),
      undefined,
    );
    expect(elsewhere.lineLinks()).toBeUndefined();
  });
});
