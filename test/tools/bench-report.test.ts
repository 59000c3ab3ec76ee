/**
 * scripts/bench-report.ts: the READMEs' benchmark sections are what the committed bench/results.txt
 * renders (never edited by hand), and the rendering gives each row its target and verdict.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  benchRows,
  END,
  READMES,
  RESULTS_FILE,
  renderSection,
  renderTable,
  START,
} from "../../scripts/bench-report.ts";

const line = (row: object) => `BENCH ${JSON.stringify(row)}`;

describe("the benchmark report", () => {
  it.each(READMES)("%s holds the section bench/results.txt renders", (file) => {
    const text = readFileSync(file, "utf8");
    const section = text.slice(text.indexOf(START), text.indexOf(END) + END.length);
    expect(section).toBe(renderSection(readFileSync(RESULTS_FILE, "utf8")));
  });

  it("reads only BENCH lines, a name's median round winning, and says whether each target is met", () => {
    const output = [
      "| a table the benchmark prints | too |",
      line({
        name: "rerun-500-warm",
        median_ms: 9000,
        baseline_name: "ideal",
        baseline_ms: 1000,
        ratio: 9,
        peak_rss_mib: 100,
      }),
      line({
        name: "rerun-500-warm",
        median_ms: 1200,
        baseline_name: "ideal",
        baseline_ms: 1000,
        ratio: 1.2,
        peak_rss_mib: 90,
      }),
      line({
        name: "rerun-500-warm",
        median_ms: 1100,
        baseline_name: "ideal",
        baseline_ms: 1000,
        ratio: 1.1,
        peak_rss_mib: 80,
      }),
      line({
        name: "scale-1000x50k-c16",
        median_ms: 5000,
        baseline_name: "ideal",
        baseline_ms: 4750,
        ratio: 1.05,
        peak_rss_mib: 426,
      }),
      line({
        name: "something-new",
        median_ms: 12,
        baseline_name: "a | pipe",
        baseline_ms: 10,
        ratio: 1.2,
        peak_rss_mib: null,
      }),
    ].join("\n");
    expect(benchRows(output).map((row) => row.ratio)).toEqual([1.2, 1.05, 1.2]);
    const table = renderTable(benchRows(output)).split("\n");
    expect(table[2]).toBe(
      "| 1,000 specs × 50 KiB, concurrency 16 | 5.00 s | ideal: 4.75 s | 1.05× | 426 MiB | ≤ 1.2×, ≤ 250 MiB | **no** |",
    );
    expect(table[3]).toBe(
      "| no-change re-run, 500 specs, warm cache | 1.20 s | ideal: 1.00 s | 1.20× | 100 MiB | ≤ 1.3× | yes |",
    );
    expect(table[4]).toBe("| `something-new` | 12 ms | a \\| pipe: 10 ms | 1.20× |  | — | — |");
  });
});
