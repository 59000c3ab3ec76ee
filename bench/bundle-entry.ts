// The bundler as a one-shot command (`node index.js <root> <workspace>`), built with ncc by
// bench/bundle.ts so that its cold start is measured the way the action ships: one bundled file.
import { bundleSpec } from "../src/bundling/index.ts";

const [root, workspace] = process.argv.slice(2);
if (!root || !workspace) throw new Error("usage: node index.js <root> <workspace>");
await bundleSpec(root, { workspace });
