import { describe, expect, it } from "vitest";
import { pruneCandidates } from "../../src/core/prune/prune.ts";

describe("pruneCandidates", () => {
  it("takes only slugs under the prefix that the run does not have, and never a preview", () => {
    const published = ["acme-a", "acme-b", "acme-c-pr-12", "acme-d-mr-3", "acmeish-x", "other-a", "acme"];
    expect(pruneCandidates(published, "acme", new Set(["acme-a"]))).toEqual(["acme-b"]);
  });

  it("reads the prefix as the slug rule writes it", () => {
    expect(pruneCandidates(["payments-api-old", "payments-new"], "Payments API", new Set())).toEqual([
      "payments-api-old",
    ]);
  });
});
