/**
 * Untrusted text in the job summary and the pull request comment (Markdown rendered by GitHub) can
 * neither break a table nor inject markup: line breaks, `|`, `<`, backticks and HTML comments are
 * neutralised by the helpers of src/core/report/markdown.ts, for any input (issue 8, item 2).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderPullRequestComment } from "../../src/core/report/comment.ts";
import { codeBlock, codeCell, escapeCell, markdownLink, safeUrl } from "../../src/core/report/markdown.ts";
import { renderJobSummary } from "../../src/core/report/summary.ts";
import type { SpecResult } from "../../src/core/result.ts";

const hostile = fc.array(
  fc.oneof(
    fc.constantFrom(
      "\r",
      "\n",
      "\r\n",
      "|",
      "\\|",
      "`",
      "``",
      "<!--",
      "-->",
      "<img src=x>",
      "</sub>",
      "@admin",
    ),
    fc.string({ maxLength: 8 }),
    fc.string({ unit: "binary", maxLength: 8 }),
  ),
  { maxLength: 8 },
);
const text = hostile.map((parts) => parts.join(""));

/** Pipes that end a GFM table cell: those not escaped with a backslash. */
const cellBreaks = (markdown: string) => markdown.match(/(?<!\\)\|/g)?.length ?? 0;

describe("Markdown helpers, for any text", () => {
  it("escapeCell: one line, no cell break, no HTML, no code span, no mention", () => {
    fc.assert(
      fc.property(text, (value) => {
        const cell = escapeCell(value);
        expect(cell).not.toMatch(/[\r\n<>@]/);
        expect(cellBreaks(cell)).toBe(0);
        expect(cell).not.toMatch(/(?<!\\)`/);
      }),
      { numRuns: 1000 },
    );
  });

  it("codeCell: one code span on one line that no pipe or backtick can leave", () => {
    fc.assert(
      fc.property(text, (value) => {
        const cell = codeCell(value);
        expect(cell).not.toMatch(/[\r\n]/);
        expect(cellBreaks(cell)).toBe(0);
        if (value !== "") expect(cell).toMatch(/^`[^`]*`$/);
      }),
      { numRuns: 1000 },
    );
  });

  it("codeBlock: the text exactly, inside one fence that nothing in the text can close", () => {
    fc.assert(
      fc.property(text, (text) => {
        const block = codeBlock(text);
        const lines = block.split("\n");
        const fence = (lines[0] as string).replace(/text$/, "");
        expect(fence).toMatch(/^`{3,}$/);
        expect(lines.at(-1)).toBe(fence);
        expect(lines.slice(1, -1).join("\n")).toBe(text.replace(/\r\n?/g, "\n"));
        for (const line of lines.slice(1, -1)) expect(line.trimStart().startsWith(fence)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("safeUrl and markdownLink: only http(s), and nothing that ends the link, the cell or opens code", () => {
    fc.assert(
      fc.property(
        text,
        fc.constantFrom("https://docs.example/", "http://x.example/a?b=", "javascript:"),
        (value, base) => {
          const url = safeUrl(`${base}${value}`);
          if (base === "javascript:") expect(url).toBeUndefined();
          else if (url !== undefined) expect(url).not.toMatch(/[\s()|<>[\]\\`]/);
          const link = markdownLink(value, `${base}${value}`);
          expect(link).not.toMatch(/[\r\n<>]/);
          expect(cellBreaks(link)).toBe(0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

function hostileResult(value: string, index: number): SpecResult {
  return {
    file: `${value}.yaml`,
    slug: `${value}-${index}`,
    status: index % 2 === 0 ? "failed" : "published",
    specVersion: value,
    versionId: value,
    versionUrl: `https://docs.example/${value}`,
    errorCode: value,
    errors: [value, `${value}\n${value}`],
  };
}

/** Lines that start a table row, each with the number of cells it splits into. */
function rowShapes(markdown: string): number[] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map(cellBreaks);
}

describe("summary and comment with hostile results", () => {
  it("keep every table row the header's width, and hold no HTML from outside", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), text, (values, organization) => {
        const results = values.map(hostileResult);
        const summary = renderJobSummary({
          mode: "preview",
          organizationId: organization,
          results,
          durationMs: 1,
        });
        const comment = renderPullRequestComment({
          key: "default",
          results,
          mode: "preview",
          pullRequestNumber: 7,
          state: { previews: values },
        });
        // Inside a code span, `<` is text; outside, only our own HTML may appear;
        // and a link's destination is a URL, where `@` mentions no one.
        const destinations = (m: string) => m.replace(/\]\([^()\s]*\)/g, "](…)");
        const summaryText = destinations(summary.replace(/(?<!\\)`[^`\n]*`/g, "`…`"));
        // `[^\n]`, not `.`: a recorded preview may hold U+2028, which `.` does not match.
        const commentText = destinations(comment.replace(/<!-- gitbook-openapi-action:[^\n]* -->/g, ""));
        for (const markdown of [summary, comment]) {
          const shapes = rowShapes(markdown);
          expect(new Set(shapes).size).toBe(1);
          expect(shapes).toHaveLength(results.length + 2);
        }
        for (const markdown of [summaryText, commentText]) {
          expect(markdown).not.toMatch(/<img|<\/sub>.*<\/sub>|@admin/);
        }
        // Ours alone: the hidden marker and the state record in the comment, the footer in the summary.
        expect(comment.match(/<!--/g)).toHaveLength(2);
        expect(comment.match(/-->/g)).toHaveLength(2);
        expect(commentText).not.toMatch(/<!--|-->/);
        expect(summaryText).not.toMatch(/<!--|-->/);
        expect(summaryText.split("\n").filter((line) => line.includes("<sub>"))).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });
});
