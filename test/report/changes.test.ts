/**
 * The API changes section of the review comment, the GitLab note and the job summary: counts per spec,
 * breaking changes grouped by operation before the others (folded), and a cut that keeps whole
 * operations, says exactly what it left out, and stays under each host's limit whatever the number of
 * changes and specs.
 */
import { describe, expect, it } from "vitest";
import {
  changesHeadline,
  groupByOperation,
  renderChanges,
  shareRoom,
} from "../../src/core/report/changes.ts";
import {
  GITHUB_COMMENT_LIMIT,
  GITLAB_NOTE_LIMIT,
  GITLAB_REVIEW,
  renderReviewComment,
} from "../../src/core/report/comment.ts";
import { renderJobSummary, SUMMARY_LIMIT } from "../../src/core/report/summary.ts";
import type { SpecChange, SpecChanges, SpecResult } from "../../src/core/result.ts";

function change(operation: string | undefined, message: string, extra: Partial<SpecChange> = {}): SpecChange {
  return { kind: "x-changed", ...(operation === undefined ? {} : { operation }), message, ...extra };
}

function spec(file: string, changes: Partial<SpecChanges>): SpecResult {
  return {
    file,
    slug: `${file.replace(/\W+/g, "-")}-pr-7`,
    status: "published",
    errors: [],
    changes: { against: "base commit", breaking: [], other: [], allowed: [], ...changes },
  };
}

/** `count` changes spread over operations of `perOperation` changes each, with messages of `width`. */
function many(count: number, perOperation: number, width = 60, prefix = "GET /things"): SpecChange[] {
  return Array.from({ length: count }, (_, i) =>
    change(
      `${prefix}/${String(Math.floor(i / perOperation)).padStart(5, "0")}`,
      `property p${i} ${"x".repeat(width)}`,
    ),
  );
}

const PETS: SpecResult = spec("api/pets.yaml", {
  breaking: [
    change("DELETE /pets/{id}", "removed", { kind: "operation-removed", operationId: "deletePet" }),
    change("GET /pets/{id}", "required query parameter owner added", { operationId: "getPet" }),
    change(undefined, "security requirement added", { kind: "security-added" }),
    change("GET /pets/{id}", "response 200 property id narrowed", { operationId: "getPet" }),
  ],
  other: [
    change("POST /pets", "added", { kind: "operation-added" }),
    change("GET /pets", "response property name added"),
    change(undefined, "info.description changed"),
  ],
  allowed: [change("/legacy", "removed", { kind: "path-removed" })],
});

/** The operations a rendered section shows, and the changes under each. */
function shownGroups(lines: readonly string[]): Map<string, number> {
  const groups = new Map<string, number>();
  let current: string | undefined;
  for (const line of lines) {
    const heading = /^- \*\*(.*)\*\*/.exec(line);
    if (heading) {
      current = heading[1] as string;
      groups.set(current, 0);
    } else if (line.startsWith("  - ") && current !== undefined) {
      groups.set(current, (groups.get(current) ?? 0) + 1);
    }
  }
  return groups;
}

describe("changesHeadline", () => {
  it("counts the changes and the operations they are in", () => {
    expect(changesHeadline(PETS.changes as SpecChanges)).toBe(
      "4 breaking in 2 operations and the document, 3 other changes in 2 operations and the document, 1 breaking allowed in 1 operation",
    );
    const big = { against: "base commit", breaking: many(3, 2), other: many(41, 3), allowed: [] } as const;
    expect(changesHeadline({ ...big, breaking: [...big.breaking], other: [...big.other], allowed: [] })).toBe(
      "3 breaking in 2 operations, 41 other changes in 14 operations",
    );
    expect(
      changesHeadline({ against: "base commit", breaking: [], other: [change(undefined, "x")], allowed: [] }),
    ).toBe("0 breaking, 1 other change in the document");
    expect(
      changesHeadline({
        against: "base commit",
        breaking: [],
        other: [change(undefined, "x")],
        allowed: [],
        omitted: 7,
      }),
    ).toBe("0 breaking, 1 other change in the document, 7 more not listed");
    expect(
      changesHeadline({
        against: "nothing",
        breaking: [],
        other: [change(undefined, "New spec.")],
        allowed: [],
      }),
    ).toBe("new spec");
    expect(
      changesHeadline({
        against: "base commit",
        breaking: [],
        other: [],
        allowed: [],
        notReviewed: "too big",
      }),
    ).toBe("not reviewed: too big");
  });
});

describe("groupByOperation", () => {
  it("puts the document first, then each path with its own changes before its operations', by method", () => {
    const groups = groupByOperation([
      change("POST /b", "1"),
      change("GET /b", "2"),
      change("/b", "3"),
      change(undefined, "4"),
      change("GET /a", "5"),
      change("GET /b", "6", { operationId: "getB" }),
      change("DELETE /b", "7"),
    ]);
    expect(
      groups.map((group) => [group.operation, group.operationId, group.changes.map((c) => c.message)]),
    ).toEqual([
      [undefined, undefined, ["4"]],
      ["GET /a", undefined, ["5"]],
      ["/b", undefined, ["3"]],
      ["GET /b", "getB", ["2", "6"]],
      ["POST /b", undefined, ["1"]],
      ["DELETE /b", undefined, ["7"]],
    ]);
  });
});

describe("renderChanges", () => {
  it("lists breaking changes under their operation, then the allowed and the other ones folded", () => {
    const lines = renderChanges([PETS], ["api/old.yaml"]);
    expect(lines).toEqual([
      "#### API changes",
      "",
      "Compared with the base commit.",
      "",
      "**api/pets.yaml**: ⚠️ 4 breaking in 2 operations and the document, 3 other changes in 2 operations and the document, 1 breaking allowed in 1 operation",
      "",
      "- **The whole document**",
      "  - security requirement added",
      "- **GET /pets/\\{id\\}** (getPet)",
      "  - required query parameter owner added",
      "  - response 200 property id narrowed",
      "- **DELETE /pets/\\{id\\}** (deletePet)",
      "  - removed",
      "",
      "<details><summary>Breaking changes allowed by breaking-allowed: 1 in 1 operation</summary>",
      "",
      "- **/legacy**",
      "  - removed",
      "",
      "</details>",
      "",
      "<details><summary>Other changes: 3 in 2 operations and the document</summary>",
      "",
      "- **The whole document**",
      "  - info.description changed",
      "- **GET /pets**",
      "  - response property name added",
      "- **POST /pets**",
      "  - added",
      "",
      "</details>",
      "",
      "**Removed specs** (breaking): 1",
      "",
      "- api/old.yaml",
      "",
    ]);
  });

  it("says only 'new spec' for a new one, and why a spec was not reviewed", () => {
    const lines = renderChanges(
      [
        spec("a.yaml", {
          against: "nothing",
          other: [change(undefined, "New spec.", { kind: "spec-added" })],
        }),
        spec("b.yaml", { notReviewed: "the comparison took longer than its 60 s" }),
        spec("c.yaml", {}),
      ],
      [],
    );
    expect(lines.slice(4)).toEqual([
      "**a.yaml**: new spec",
      "",
      "**b.yaml**: ⚠️ not reviewed: the comparison took longer than its 60 s",
      "",
    ]);
  });

  it("escapes what the documents say: operations, ids, messages and file names", () => {
    const hostile = spec("api/<b>@team|x.yaml", {
      breaking: [
        change("GET /a/<!--", "removed `code` <script>@everyone | **bold** #12", { operationId: "x]*(y)@z" }),
      ],
    });
    const text = renderChanges([hostile], ["old/<img src=x>.yaml"]).join("\n");
    expect(text).not.toMatch(/<(?!\/?details|\/?summary)/);
    expect(text).not.toContain("@");
    expect(text).toContain("&lt;script&gt;&#64;everyone \\| \\*\\*bold\\*\\* \\#12");
    expect(text).toContain("- **GET /a/&lt;\\!--** (x\\]\\*\\(y\\)&#64;z)");
    const gitlab = renderChanges([hostile], [], { size: GITLAB_NOTE_LIMIT, ...GITLAB_ROOM }).join("\n");
    expect(gitlab).toContain("\\#&#8203;12");
  });

  it("shows whole operations while they fit, and says exactly how many changes it left out and where", () => {
    const breaking = many(300, 3, 20);
    const other = many(2_000, 4, 20, "POST /others");
    const lines = renderChanges([spec("api/big.yaml", { breaking, other })], [], {
      size: 20_000,
      why: "to keep this test small",
      everyChange: "Run the diff command.",
    });
    expect(joinedSize(lines)).toBeLessThanOrEqual(20_000);
    const groups = shownGroups(lines);
    // Every operation shown is whole.
    for (const [operation, count] of groups) {
      expect(count, operation).toBe(operation.startsWith("GET") ? 3 : 4);
    }
    const shownBreaking = [...groups.keys()].filter((operation) => operation.startsWith("GET")).length;
    const shownOther = groups.size - shownBreaking;
    expect(shownBreaking).toBe(100); // the breaking changes come first and all fit
    expect(shownOther).toBeGreaterThan(0);
    const leftOther = 2_000 - shownOther * 4;
    const leftOperations = 500 - shownOther;
    expect(lines).toContain(
      `- _… ${leftOther} more changes in ${leftOperations} operations, not shown here_`,
    );
    expect(lines.at(-1)).toBe(
      `_Not shown here to keep this test small: ${leftOther} other changes in ${leftOperations} operations. Run the diff command._`,
    );
  });

  it("gives every spec a turn, so one long list does not hide another spec's breaking changes", () => {
    const results = [
      spec("a.yaml", { breaking: many(5_000, 1, 100) }),
      spec("b.yaml", { breaking: [change("GET /b", "removed")] }),
    ];
    const lines = renderChanges(results, ["gone.yaml"], { size: 8_000, why: "here", everyChange: "." });
    expect(joinedSize(lines)).toBeLessThanOrEqual(8_000);
    expect(lines).toContain("- **GET /b**");
    expect(lines).toContain("- gone.yaml");
    expect(lines.join("\n")).toMatch(/- _… \d+ more breaking changes in \d+ operations, not shown here_/);
  });

  it("lists the specs' headlines while they fit, and counts the specs it could not list", () => {
    const results = Array.from({ length: 300 }, (_, i) =>
      spec(`specs/s${String(i).padStart(3, "0")}.yaml`, { breaking: many(2, 1) }),
    );
    const lines = renderChanges(results, [], { size: 5_000, why: "here", everyChange: "See all elsewhere." });
    expect(joinedSize(lines)).toBeLessThanOrEqual(5_000);
    const listed = lines.filter((line) => line.startsWith("**specs/")).length;
    expect(listed).toBeGreaterThan(10);
    expect(listed).toBeLessThan(300);
    const note = lines.at(-1) ?? "";
    expect(note).toContain(`the headlines of ${300 - listed} specs`);
    expect(note).toMatch(/^_Not shown here here: \d+ breaking changes in \d+ operations, the headlines of/);
  });

  it("is empty when not even its title fits, and when nothing changed", () => {
    expect(renderChanges([PETS], [], { size: 30, why: "", everyChange: "" })).toEqual([]);
    expect(renderChanges([spec("a.yaml", {})], [])).toEqual([]);
  });
});

const GITLAB_ROOM = { defuse: GITLAB_REVIEW.defuse, why: "here", everyChange: "." };

function joinedSize(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + line.length + 1, 0);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("the comment, the note and the summary, at scale", () => {
  /** 20 specs, each with thousands of changes in hundreds of operations, written with emoji and CJK. */
  const results = Array.from({ length: 20 }, (_, i) =>
    spec(`specs/服务-${i}.yaml`, {
      breaking: many(400, 4, 80, `GET /破壊/${i}`).map((c) => ({ ...c, message: `😀 ${c.message} 名前` })),
      other: many(3_000, 6, 120, `POST /变更/${i}`).map((c) => ({ ...c, message: `名前 ${c.message} 🙂` })),
      allowed: many(10, 5),
    }),
  );
  const removed = Array.from({ length: 50 }, (_, i) => `old/${i}.yaml`);
  const total = { breaking: 20 * 400, other: 20 * 3_000 };

  function checkCounts(body: string) {
    // What is shown and what the notes say was left out add up to every change.
    const shown = [...body.matchAll(/^ {2}- /gm)].length;
    const note = /_Not shown here [^:]*: (.*)\._$/m.exec(body)?.[1] ?? "";
    const left = [...note.matchAll(/(\d+) (?:breaking|allowed breaking|other) changes?/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(shown + left).toBe(total.breaking + total.other + 20 * 10);
  }

  it("keeps the GitHub comment under 65,536 characters, breaking changes first", () => {
    const body = renderReviewComment({
      key: "default",
      results,
      mode: "preview",
      pullRequestNumber: 7,
      removedSpecs: removed,
      state: { previews: [] },
    });
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT * 0.8);
    expect(body).not.toMatch(LONE_SURROGATE);
    expect(body).toContain("GitHub's limit of 65,536 characters");
    expect(body).toContain("`gitbook-openapi diff <base file> <head file>`");
    expect(body).toContain("job summary");
    expect(body).not.toContain("<details><summary>Other changes"); // no room left past the breaking ones
    for (let i = 0; i < 20; i++)
      expect(body).toContain(`**specs/服务-${i}.yaml**: ⚠️ 400 breaking in 100 operations`);
    checkCounts(body);
  });

  it("keeps the GitLab note under 1,000,000 characters, defused, with the other changes too", () => {
    const body = renderReviewComment({
      key: "default",
      results,
      host: GITLAB_REVIEW,
      mode: "preview",
      pullRequestNumber: 7,
      removedSpecs: removed,
      state: { previews: [] },
    });
    expect(body.length).toBeLessThanOrEqual(GITLAB_NOTE_LIMIT);
    expect(body.length).toBeGreaterThan(GITLAB_NOTE_LIMIT * 0.8);
    expect(body).toContain("<details><summary>Other changes");
    expect(body).toContain("GitLab's limit of 1,000,000 characters");
    expect(body).not.toContain("job summary");
    checkCounts(body);
  });

  it("keeps the job summary under 1 MiB of UTF-8, and its table too when there are very many specs", () => {
    const summary = renderJobSummary({
      mode: "preview",
      organizationId: "org",
      results,
      durationMs: 1000,
      removedSpecs: removed,
    });
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(SUMMARY_LIMIT * 0.8);
    expect(summary).not.toMatch(LONE_SURROGATE);
    expect(summary).toContain("job summary under its limit of 1 MiB");
    checkCounts(summary);

    const failing = Array.from({ length: 3_000 }, (_, i) => ({
      ...spec(`specs/${i}.yaml`, { breaking: many(3, 1) }),
      status: "failed" as const,
      errorCode: "PARSE_ERROR",
      errors: ["😀".repeat(400)],
    }));
    const crowded = renderJobSummary({
      mode: "preview",
      organizationId: "org",
      results: failing,
      durationMs: 1,
    });
    expect(Buffer.byteLength(crowded)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(crowded).toMatch(/_\d+ more specs not shown, to keep this job summary under its limit of 1 MiB/);
    expect(crowded).toContain("#### API changes");
    expect(crowded).not.toMatch(LONE_SURROGATE);
  });

  it("shows everything when everything fits", () => {
    const body = renderReviewComment({
      key: "default",
      results: [PETS],
      mode: "preview",
      pullRequestNumber: 7,
      state: { previews: [] },
    });
    expect(body).not.toContain("Not shown here");
    expect(body).toContain(renderChanges([PETS], []).join("\n"));
  });
});

describe("shareRoom", () => {
  it("gives each part what it needs when both fit, else the small one whole, else half each", () => {
    expect(shareRoom(100, 30, 40)).toEqual([30, 40]);
    expect(shareRoom(100, 90, 40)).toEqual([60, 40]);
    expect(shareRoom(100, 20, 90)).toEqual([20, 80]);
    expect(shareRoom(100, 70, 90)).toEqual([50, 50]);
  });
});
