import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { previewedPullRequests, sweepClosedPullRequests } from "../../src/core/previews/sweep.ts";

describe("the cleanup sweep", () => {
  it("takes the pull request numbers of preview slugs below the prefix only", () => {
    const slugs = [
      "api-pets-pr-3",
      "api-pets-pr-3",
      "api-shop-pr-12",
      "other-pets-pr-4",
      "api-pets",
      "api-pets-mr-5",
      "api-x-pr-0",
    ];
    expect(previewedPullRequests(slugs, "api-")).toEqual([3, 12]);
    expect(previewedPullRequests(slugs, "")).toEqual([3, 4, 12]);
  });

  it("cleans up closed pull requests only, and keeps those whose state it cannot read", async () => {
    const logger = new MemoryLogger();
    const cleaned: number[] = [];
    const outcome = await sweepClosedPullRequests({
      slugs: ["a-pr-1", "a-pr-2", "a-pr-3"],
      prefix: "",
      logger,
      states: {
        async state(number) {
          if (number === 3) throw new Error("Bitbucket GET …/pullrequests/3 answered HTTP 503");
          return number === 1 ? "closed" : "open";
        },
      },
      cleanUp: async (number) => {
        cleaned.push(number);
        return [{ file: "", slug: `a-pr-${number}`, status: "deleted", errors: [] }];
      },
    });
    expect(cleaned).toEqual([1]);
    expect(outcome).toMatchObject({ closed: [1], open: [2], unknown: [3] });
    expect(logger.messages("warning")).toEqual([expect.stringMatching(/#3 is closed .*HTTP 503.*kept/)]);
  });

  it("asks about at most its limit of pull requests a sweep, and says so", async () => {
    const logger = new MemoryLogger();
    const asked: number[] = [];
    await sweepClosedPullRequests({
      slugs: ["a-pr-5", "a-pr-1", "a-pr-9"],
      prefix: "",
      logger,
      maxReviews: 2,
      states: {
        async state(number) {
          asked.push(number);
          return "open";
        },
      },
      cleanUp: async () => [],
    });
    expect(asked).toEqual([1, 5]);
    expect(logger.messages("warning")[0]).toContain("3 pull requests have previews");
  });
});
