// `npm run build`: dist/ from src/, with esbuild (docs/design/build-choice.md says why it replaced ncc).
//
// One build for both entries — the Action (src/index.ts → dist/index.js, action.yml's `main`) and the
// command (src/hosts/cli/main.ts → dist/cli.js, package.json's `bin`) — split into ES module chunks
// (dist/chunks/): the code both use is shipped once, and every dynamic `import()` of the sources is a
// chunk loaded only when it runs (`--version` loads no command, a read command no YAML and no bundling).
// Minified, without source maps. The output is a function of the sources and the lockfile only (chunk
// names are hashes of their content), so that CI can compare dist/ with a fresh build.
//
// Besides the code: dist/package.json (`"type": "module"`, so that Node loads dist/*.js as ES
// modules), the exec bit and `#!` line of dist/cli.js, and dist/licenses.txt, the licenses of every
// package whose code is in dist/ (the list ncc wrote before).
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { validatorsPlugin } from "./validators-plugin.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// `--outdir DIR` builds elsewhere, e.g. to compare builds (docs/design/build-choice.md).
// `--validators-at-run-time` leaves the OpenAPI validators to be compiled by ajv when a run needs them,
// as the sources do: the baseline of bench/validators.ts, never dist/.
const { values: options } = parseArgs({
  options: {
    outdir: { type: "string", default: "dist" },
    "validators-at-run-time": { type: "boolean", default: false },
    // `--metafile FILE` writes esbuild's account of what each chunk holds, to measure what weighs.
    metafile: { type: "string" },
  },
});
const dist = path.resolve(root, options.outdir);
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
/** The oldest Node the package supports (package.json `engines`), as esbuild's target. */
const nodeTarget = `node${/(\d+(?:\.\d+)*)/.exec(pkg.engines.node)?.[1] ?? "22"}`;

// Bundled CommonJS packages call `require` (Node's built-in modules, mostly); an ES module has none, so
// each chunk makes its own. `__filename` and `__dirname` are not given: no bundled code may need them.
const banner = `import{createRequire as __gbRequire}from"node:module";const require=__gbRequire(import.meta.url);`;

/**
 * `@actions/http-client` (under `@actions/core`) imports undici's index for its `ProxyAgent` only, and
 * the index is all of undici (0.24 MB more in the Action's chunk than the parts the clients load, see
 * src/adapters/http/undici.ts). Its import gets `ProxyAgent` from its own file, which those parts
 * already hold.
 */
const proxyAgentOnly = {
  name: "proxy-agent-only",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^undici$/ }, (args) =>
      /node_modules\/@actions\/http-client\//.test(args.importer)
        ? { path: "undici-proxy-agent", namespace: "proxy-agent-only" }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: "proxy-agent-only" }, () => ({
      contents: 'import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";\nexport { ProxyAgent };\n',
      loader: "js",
      resolveDir: root,
    }));
  },
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
const result = await build({
  absWorkingDir: root,
  entryPoints: { index: "src/index.ts", cli: "src/hosts/cli/main.ts" },
  outdir: dist,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: nodeTarget,
  minify: true,
  charset: "utf8",
  legalComments: "none",
  banner: { js: banner },
  metafile: true,
  logLevel: "warning",
  // undici's experimental HTTP/1 parser (Milo, 150 kB of WebAssembly, used only when UNDICI_USE_MILO is
  // set) is left out as Node.js leaves it out of its own copy: undici reads this name to know it.
  define: { esbuildDetection: "true" },
  // The OpenAPI validators as code generated now, a chunk per version (scripts/validators-plugin.mjs).
  plugins: [proxyAgentOnly, ...(options["validators-at-run-time"] ? [] : [validatorsPlugin])],
});
if (result.warnings.length > 0)
  throw new Error(`esbuild warned ${result.warnings.length} time(s): see above`);

const outputs = Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file));
// The banner where its `require` is used: in the chunk of esbuild's `__require` (which calls the
// `require` of its own module), and in any chunk that names `require` at all. Every other chunk loads
// without it: each createRequire costs about 0.1 ms of a start that loads 60 chunks.
for (const file of outputs) {
  const code = readFileSync(file, "utf8");
  const at = code.indexOf(banner);
  if (at === -1) throw new Error(`${path.relative(root, file)} lost its banner`);
  const rest = code.slice(0, at) + code.slice(at + banner.length);
  if (!/\brequire\b/.test(rest)) writeFileSync(file, rest);
}
const strays = outputs.filter((file) => !file.endsWith(".js"));
if (strays.length > 0) throw new Error(`esbuild emitted files that are not code: ${strays.join(", ")}`);
for (const file of outputs) {
  // Code that runs only in CommonJS would fail at run time in these ES modules.
  const code = readFileSync(file, "utf8");
  const guarded = /typeof __(dirname|filename)\s*(?:<|[!=]==?)\s*["']u(?:ndefined)?["']\s*\?\s*__\1\b/g;
  if (
    /\b__(dirname|filename)\b/.test(code.replace(guarded, "").replace(/typeof __(dirname|filename)/g, ""))
  ) {
    throw new Error(`${path.relative(root, file)} uses __dirname or __filename, which an ES module has not`);
  }
}

const cli = path.join(dist, "cli.js");
if (!readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node\n")) {
  throw new Error(`${path.relative(root, cli)} lost its #! line`);
}
chmodSync(cli, 0o755);
writeFileSync(path.join(dist, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
writeFileSync(path.join(dist, "licenses.txt"), licenses(result.metafile));
if (options.metafile) writeFileSync(path.resolve(options.metafile), JSON.stringify(result.metafile));

const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
const bytes = outputs.reduce((sum, file) => sum + readFileSync(file).length, 0);
console.log(
  `${path.relative(root, dist)}/: ${files.length} files, ${(bytes / 1e6).toFixed(2)} MB of code (${nodeTarget})`,
);

/**
 * The licenses of the packages whose code is in the output, as ncc wrote them: for each package,
 * sorted by name, its name, its `license` field and the text of its license file, then a blank line.
 */
function licenses(metafile) {
  const packages = new Map();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) packages.set(path.resolve(root, match[1]), undefined);
    }
  }
  const entries = [...packages.keys()].map((dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const licenseFile = readdirSync(dir)
      .filter((name) => /^(licen[cs]e|copying)(\.|-|$)/i.test(name))
      .sort()[0];
    if (licenseFile === undefined) throw new Error(`${manifest.name} has no license file to ship`);
    const text = readFileSync(path.join(dir, licenseFile), "utf8").trim();
    return { name: manifest.name, license: manifest.license ?? "", text };
  });
  const unique = new Map(entries.map((entry) => [`${entry.name}\n${entry.license}\n${entry.text}`, entry]));
  return [...unique.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, license, text }) => `${name}\n${license}\n${text}\n\n`)
    .join("");
}
