import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    allowOnly: false,
    // Most files wait on child processes and loopback servers, not the CPU: more files than cores at once.
    maxWorkers: 4,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
