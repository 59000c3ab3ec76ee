import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The tests run on the project's Node.js (the `node` devDependency, node_modules/.bin/node), which
 * `npm test` and `npx vitest` put first on PATH. Started by an older `node` directly, vitest fails in
 * its own reporter (Node.js 20: `Map.groupBy is not a function`) and hides why: say it in one line.
 */
const projectNode = (
  JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
    devDependencies: { node: string };
  }
).devDependencies.node;
const wantedMajor = Number(/\d+/.exec(projectNode)?.[0]);
if (Number(process.versions.node.split(".")[0]) < wantedMajor) {
  process.stderr.write(
    `The tests run on the project's Node.js ${wantedMajor} (node_modules/.bin/node), not Node.js ${process.versions.node} (${process.execPath}): use \`npm test\` or \`npx vitest run <file>\`.\n`,
  );
  process.exit(1);
}

/**
 * Node's compile cache for the suite's own processes and threads (the forks, the preparation's and the
 * comparison's workers, the CLI and action processes the harness starts): loading the sources costs a
 * third as much once compiled (docs/design/test-suite.md). Keyed by each file's content, never stale.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), "gitbook-openapi-compile-cache");

/**
 * Vitest's order: the longest first, by the durations it cached, so the files that wait out wide time
 * budgets start beside the ones that compute. Without a cached duration (a clean clone) vitest falls back
 * to the largest files first; there the end-to-end files (`*.e2e.test.ts`, whole runs against the
 * emulator) go ahead of the rest: started last, one of them alone would hold the suite's end.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ahead = (spec: TestSpecification) =>
      spec.moduleId.endsWith(".e2e.test.ts") && this.ctx.cache.getTestSpecificationResult(spec) === undefined;
    return [...sorted.filter(ahead), ...sorted.filter((spec) => !ahead(spec))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    allowOnly: false,
    // Most files wait on child processes and loopback servers, not the CPU: more files than cores at once.
    maxWorkers: 6,
    // A worker's files share its loaded modules instead of loading them again for each file: half the
    // suite's CPU time (docs/design/test-suite.md). A file that changes a process-wide state (the
    // environment, nock's interception) restores it when it ends.
    isolate: false,
    sequence: { sequencer: EndToEndFirst },
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
