// The bundler as a one-shot command (`node index.js <root> <workspace> [output]`), built with esbuild by
// bench/bundle.ts so that its cold start is measured the way the action ships: bundled and minified.
// Prints the bundling time and the peak RSS of the process on stderr.
import { writeFileSync } from "node:fs";
import { bundleSpec } from "../src/core/bundling/index.ts";

const [root, workspace, output] = process.argv.slice(2);
if (!root || !workspace) throw new Error("usage: node index.js <root> <workspace> [output]");
const start = performance.now();
const result = await bundleSpec(root, { workspace });
if (output) writeFileSync(output, result.text);
const peakMiB = process.resourceUsage().maxRSS / 1024;
console.error(JSON.stringify({ bundleMs: performance.now() - start, peakMiB, files: result.files.length }));
