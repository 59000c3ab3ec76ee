/**
 * What each command loads before it runs, as the build splits it (scripts/build.mjs: esbuild, one
 * split build for both entries): `--version` and `--help` load the program (commander and the commands'
 * table) but no command's code, and the read commands load neither YAML readers nor the validator nor
 * bundling (issue 19). The build runs in memory with the same splitting; each check follows the static
 * imports of the chunks a command loads and names what it found.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
let outputs: Metafile["outputs"];

beforeAll(async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { index: "src/index.ts", cli: "src/hosts/cli/main.ts" },
    outdir: path.join(root, ".scratch", "lazy-loading-test"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  outputs = result.metafile.outputs;
}, 60_000);

/** The chunk of an entry point or of a dynamically imported module. */
function chunkOf(source: string): string {
  const found = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === source);
  if (found === undefined) throw new Error(`no chunk starts at ${source}: is it still imported dynamically?`);
  return found;
}

/** Every source file loaded once these modules' chunks are, following static imports between chunks. */
function loadedBy(sources: string[]): string[] {
  const seen = new Set<string>();
  const todo = sources.map(chunkOf);
  for (let chunk = todo.pop(); chunk !== undefined; chunk = todo.pop()) {
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const imported of outputs[chunk]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) todo.push(imported.path);
    }
  }
  return [...seen].flatMap((chunk) => Object.keys(outputs[chunk]?.inputs ?? {}));
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
const packagesIn = (inputs: string[]) =>
  [...new Set(inputs.map(packageOf).filter((name) => name !== undefined))].sort();

const CLI = ["src/hosts/cli/main.ts", "src/hosts/cli/program.ts"];

describe("what the command line loads", () => {
  it("for --version and --help: commander and its own code, no command's", () => {
    const inputs = loadedBy(CLI);
    expect(packagesIn(inputs)).toEqual(["commander"]);
    const commands = [
      "sync.ts",
      "bundle.ts",
      "diff.ts",
      "read-commands.ts",
      "connection.ts",
      "sync-settings.ts",
    ];
    expect(inputs.filter((input) => commands.some((name) => input.endsWith(`hosts/cli/${name}`)))).toEqual(
      [],
    );
  });

  it("for a read command: the HTTP client, without YAML, validation or bundling", () => {
    const inputs = loadedBy([
      ...CLI,
      "src/hosts/cli/read-commands.ts",
      "src/hosts/cli/connection.ts",
      "src/hosts/cli/sync-inputs.ts",
    ]);
    expect(packagesIn(inputs)).toEqual(["commander", "undici"]);
    expect(
      inputs.filter((input) => /src\/core\/(bundling|validation\/structure|discovery)\//.test(input)),
    ).toEqual([]);
    // undici's parts the clients use, not its index (src/adapters/http/undici.ts).
    expect(inputs.filter((input) => input.endsWith("node_modules/undici/index.js"))).toEqual([]);
  });

  it("for sync: the engine and YAML (so the checks above can fail); the validator when it first validates", () => {
    const packages = packagesIn(
      loadedBy([...CLI, "src/hosts/cli/sync.ts", "src/hosts/cli/sync-settings.ts"]),
    );
    expect(packages).toEqual(expect.arrayContaining(["commander", "undici", "yaml", "js-yaml"]));
    // The check against the official schemas is imported by loadStructuralCheck, after the first request.
    expect(packages).not.toContain("ajv");
    expect(packagesIn(loadedBy(["src/core/validation/structure.ts"]))).toEqual(
      expect.arrayContaining(["ajv", "ajv-draft-04", "ajv-formats"]),
    );
  });

  it("for a spec's local steps in a worker: a chunk of its own, with no command line and no HTTP client", () => {
    // The workers run the chunk that holds src/core/prepare/prepare-worker.ts (import.meta.url): were it
    // folded into a shared chunk or an entry, they would load and run code meant for the main thread.
    const inputs = loadedBy(["src/core/prepare/prepare-worker.ts"]);
    expect(inputs).toContain("src/core/prepare/prepare.ts");
    expect(packagesIn(inputs)).toEqual(expect.arrayContaining(["js-yaml"]));
    expect(packagesIn(inputs)).not.toContain("commander");
    expect(packagesIn(inputs)).not.toContain("undici");
    expect(inputs.filter((input) => input.includes("src/hosts/"))).toEqual([]);
    // It reads the review's base version (base-document.ts), but never loads the comparison.
    expect(inputs).toContain("src/core/change-review/base-document.ts");
    expect(inputs.filter((input) => /src\/core\/(changes\/|review\/compare-worker)/.test(input))).toEqual([]);
  });
});
