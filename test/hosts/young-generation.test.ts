import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAIN_YOUNG_MB } from "../../src/hosts/young-generation.ts";

const moduleUrl = new URL("../../src/hosts/young-generation.ts", import.meta.url).href;

/** The young generation's size after garbage that V8 alone would grow it to 128 MiB for, in a fresh process. */
function youngGenerationMb(bounded: boolean): number {
  const script = `
    import v8 from "node:v8";
    import { boundYoungGeneration } from ${JSON.stringify(moduleUrl)};
    if (${bounded}) boundYoungGeneration();
    const kept = [];
    for (let i = 0; i < 600; i++) {
      kept.push(JSON.parse(JSON.stringify(Array.from({ length: 2000 }, (_, j) => ({ j, s: "x" + j })))));
      if (kept.length > 32) kept.shift();
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1024 / 1024));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: fileURLToPath(new URL(".", import.meta.url)),
  });
  expect(run.stderr).toBe("");
  return Number(run.stdout);
}

describe("boundYoungGeneration", () => {
  it("stops the main thread's young generation at its bound, where V8 alone grows it past", () => {
    expect(youngGenerationMb(false)).toBeGreaterThan(MAIN_YOUNG_MB);
    expect(youngGenerationMb(true)).toBeLessThanOrEqual(MAIN_YOUNG_MB);
  });
});
