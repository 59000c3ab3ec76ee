/**
 * Prints the change review guide's two tables (docs/pull-requests.md) of how API changes are classified: the rules by direction, from
 * `src/core/changes/rules.ts` (the table the engine classifies by), and the cases the tests assert
 * (`test/changes/cases.ts`) with what `compareApis` reports and what `api-smart-diff` (the library the
 * review was built on before, kept as a dev dependency for this column) says alone on the same documents.
 * `--write` replaces both tables between their markers in docs/pull-requests.md.
 *
 *   npx node scripts/change-table.ts [--write]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { apiCompare } from "api-smart-diff";
import { compareApis } from "../src/core/changes/index.ts";
import { RULES } from "../src/core/changes/rules.ts";
import { cases, documents } from "../test/changes/cases.ts";

const START = "<!-- change-table:start (npx node scripts/change-table.ts --write) -->";
const END = "<!-- change-table:end -->";
const RULES_START = "<!-- rules-table:start (npx node scripts/change-table.ts --write) -->";
const RULES_END = "<!-- rules-table:end -->";

/** The rules by direction: what a client sends, what it receives. */
export function rulesTable(): string {
  const rows = ["| Kind | Change | In a request | In a response |", "| --- | --- | --- | --- |"];
  const word = (verdict: string) => (verdict === "breaking" ? "**breaking**" : "other");
  for (const [kind, rule] of Object.entries(RULES))
    rows.push(`| \`${kind}\` | ${rule.summary} | ${word(rule.request)} | ${word(rule.response)} |`);
  return rows.join("\n");
}

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
/** The page that holds both tables. */
export const CHANGE_TABLE_PAGE = "docs/pull-requests.md";
export const RULES_MARKERS = { START: RULES_START, END: RULES_END } as const;

function replaceBetween(text: string, start: string, end: string, body: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${CHANGE_TABLE_PAGE} has no ${start} … ${end} markers.`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

function main(): void {
  if (!process.argv.includes("--write")) {
    console.log(`${rulesTable()}\n\n${table()}`);
    return;
  }
  let page = readFileSync(CHANGE_TABLE_PAGE, "utf8");
  page = replaceBetween(page, START, END, table());
  page = replaceBetween(page, RULES_START, RULES_END, rulesTable());
  writeFileSync(CHANGE_TABLE_PAGE, page);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
