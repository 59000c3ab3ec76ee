/**
 * The bounds the hosts set on the heaps' growth (src/hosts/heap-growth.ts), each measured in a fresh
 * process on garbage that V8 alone would grow the heap for.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAIN_YOUNG_MB } from "../../src/hosts/heap-growth.ts";

const moduleUrl = new URL("../../src/hosts/heap-growth.ts", import.meta.url).href;

/** What `workload` prints in a fresh process, the bounds set first or not. */
function measured(bounded: boolean, workload: string): number {
  const script = `
    import v8 from "node:v8";
    import { boundHeapGrowth } from ${JSON.stringify(moduleUrl)};
    if (${bounded}) boundHeapGrowth();
    ${workload}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: fileURLToPath(new URL(".", import.meta.url)),
  });
  expect(run.stderr).toBe("");
  return Number(run.stdout);
}

/** The young generation's size after garbage V8 alone would grow it to 128 MiB for. */
const YOUNG_GENERATION_MB = `
  const kept = [];
  for (let i = 0; i < 600; i++) {
    kept.push(JSON.parse(JSON.stringify(Array.from({ length: 2000 }, (_, j) => ({ j, s: "x" + j })))));
    if (kept.length > 32) kept.shift();
    if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  process.stdout.write(String(young.space_size / 1024 / 1024));`;

/**
 * The old generation's largest size while about 30 MiB stays live and older objects keep dying: each
 * lives long enough to be promoted, so what the old generation holds past the live ones is garbage
 * waiting for a full GC.
 */
const OLD_GENERATION_PEAK_MB = `
  const kept = [];
  let peak = 0;
  for (let i = 0; i < 1200; i++) {
    kept.push(Array.from({ length: 5000 }, (_, j) => ({ i, j })));
    if (kept.length > 200) kept.shift();
    if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space");
    peak = Math.max(peak, old.space_size);
  }
  process.stdout.write(String(peak / 1024 / 1024));`;

describe("boundHeapGrowth", () => {
  it("stops the main thread's young generation near its bound, where V8 alone grows it far past", () => {
    const alone = measured(false, YOUNG_GENERATION_MB);
    expect(alone).toBeGreaterThan(2 * MAIN_YOUNG_MB);
    // Between two GCs the space can hold a few MiB past its capacity (seen: 16, 18, 20.75, then 16).
    expect(measured(true, YOUNG_GENERATION_MB)).toBeLessThan(2 * MAIN_YOUNG_MB);
  });

  it("lets the old generation hold less garbage past what is live than V8 alone does", () => {
    const alone = measured(false, OLD_GENERATION_PEAK_MB);
    const bounded = measured(true, OLD_GENERATION_PEAK_MB);
    expect(bounded).toBeLessThan(alone * 0.75);
  });
});
