import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CHANGE_TABLE_PAGE,
  RULES_MARKERS,
  rulesTable,
  TABLE_MARKERS,
  table,
} from "../../scripts/change-table.ts";
import { compareApis } from "../../src/core/changes/index.ts";
import { RULES } from "../../src/core/changes/rules.ts";
import { cases, documents } from "./cases.ts";

describe("compareApis: the classification table", () => {
  it("has at least five cases per version", () => {
    for (const v of ["3.0", "3.1", "2.0"])
      expect(cases.filter((c) => c.version === v).length).toBeGreaterThanOrEqual(5);
  });

  it.each(cases.map((c) => [`${c.version} ${c.name}`, c] as const))("%s", (_, c) => {
    const { before, after } = documents(c);
    const result = compareApis(before, after);
    const expectedList = c.expected === "breaking" ? result.breaking : result.other;
    expect(expectedList.map((x) => x.kind)).toContain(c.kind);
    if (c.expected === "other") expect(result.breaking).toEqual([]);
    const all = [...result.breaking, ...result.other].map((x) => x.kind);
    for (const kind of c.notKinds ?? []) expect(all).not.toContain(kind);
  });

  it("has a case for every rule of the table", () => {
    const covered = new Set(cases.map((c) => c.kind));
    expect(Object.keys(RULES).filter((kind) => !covered.has(kind))).toEqual([]);
  });

  it("finds nothing between a document and itself", () => {
    for (const c of cases) {
      const { before } = documents(c);
      expect(compareApis(before, structuredClone(before))).toEqual({ breaking: [], other: [] });
    }
  });
});

describe("the change review guide's tables (docs/pull-requests.md)", () => {
  it("is the one scripts/change-table.ts prints (run it with --write after changing the cases)", () => {
    const readme = readFileSync(new URL(`../../${CHANGE_TABLE_PAGE}`, import.meta.url), "utf8");
    const from = readme.indexOf(TABLE_MARKERS.START) + TABLE_MARKERS.START.length;
    const to = readme.indexOf(TABLE_MARKERS.END);
    expect(readme.indexOf(TABLE_MARKERS.START)).toBeGreaterThanOrEqual(0);
    expect(readme.slice(from, to).trim()).toBe(table());
    expect(table().split("\n").length - 2).toBeGreaterThanOrEqual(20);
  });

  it("has the rules table of src/core/changes/rules.ts", () => {
    const readme = readFileSync(new URL(`../../${CHANGE_TABLE_PAGE}`, import.meta.url), "utf8");
    const from = readme.indexOf(RULES_MARKERS.START) + RULES_MARKERS.START.length;
    const to = readme.indexOf(RULES_MARKERS.END);
    expect(readme.indexOf(RULES_MARKERS.START)).toBeGreaterThanOrEqual(0);
    expect(readme.slice(from, to).trim()).toBe(rulesTable());
  });
});
