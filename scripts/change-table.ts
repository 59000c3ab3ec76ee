/**
 * Prints the README's table of how API changes are classified, from the cases the tests assert
 * (`test/changes/cases.ts`): what `api-smart-diff` says alone on the raw documents, and what
 * `compareApis` reports. `--write` replaces the table between the markers in README.md.
 *
 *   npx node scripts/change-table.ts [--write]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { apiCompare } from "api-smart-diff";
import { compareApis } from "../src/changes/index.ts";
import { cases, documents } from "../test/changes/cases.ts";

const START = "<!-- change-table:start (npx node scripts/change-table.ts --write) -->";
const END = "<!-- change-table:end -->";

function libraryVerdict(before: unknown, after: unknown): string {
  const { diffs } = apiCompare(structuredClone(before), structuredClone(after)) as {
    diffs: { type: string }[];
  };
  const types = new Set(diffs.map((d) => d.type));
  if (types.has("breaking")) return "breaking";
  if (types.has("unclassified")) return "unclassified";
  if (types.has("non-breaking")) return "non-breaking";
  if (types.size > 0) return [...types].join(", ");
  return "no change";
}

export function table(): string {
  const rows = [
    "| Change | Version | Expected | api-smart-diff alone | Ours (kind) |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const c of cases) {
    const { before, after } = documents(c);
    const ours = compareApis(before, after);
    const list = c.expected === "breaking" ? ours.breaking : ours.other;
    const found = list.some((x) => x.kind === c.kind);
    const verdict = ours.breaking.length > 0 ? "breaking" : "other";
    const kinds = found ? c.kind : [...ours.breaking, ...ours.other].map((x) => x.kind).join(", ");
    const lib = libraryVerdict(before, after);
    const libText = (lib === "breaking") === (c.expected === "breaking") ? lib : `**${lib}**`;
    rows.push(`| ${c.name} | ${c.version} | ${c.expected} | ${libText} | ${verdict} (\`${kinds}\`) |`);
  }
  return rows.join("\n");
}

export const TABLE_MARKERS = { START, END } as const;

function main(): void {
  if (!process.argv.includes("--write")) {
    console.log(table());
    return;
  }
  const readme = readFileSync("README.md", "utf8");
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} markers.`);
  writeFileSync("README.md", `${readme.slice(0, from + START.length)}\n${table()}\n${readme.slice(to)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
