/**
 * What each command loads before it runs, as the build splits it (scripts/build.mjs: esbuild, one
 * split build for both entries): `--version` and `--help` load the program (commander and the commands'
 * table) but no command's code, and the read commands load neither YAML readers nor the validator nor
 * bundling (issue 19). The build runs in memory with the same splitting; each check follows the static
 * imports of the chunks a command loads and names what it found. The OpenAPI validators are generated as
 * the build generates them (scripts/validators-plugin.mjs): a chunk per version.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { validatorsPlugin } from "../../scripts/validators-plugin.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
let outputs: Metafile["outputs"];
let metafile: Metafile;

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
    plugins: [validatorsPlugin],
  });
  metafile = result.metafile;
  outputs = metafile.outputs;
}, 60_000);

/** The chunk of an entry point or of a dynamically imported module. */
function chunkOf(source: string): string {
  const found = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === source);
  if (found === undefined) throw new Error(`no chunk starts at ${source}: is it still imported dynamically?`);
  return found;
}

/** Every chunk loaded once these modules' chunks are, following static imports between chunks. */
function loadedChunks(sources: string[]): string[] {
  const seen = new Set<string>();
  const todo = sources.map(chunkOf);
  for (let chunk = todo.pop(); chunk !== undefined; chunk = todo.pop()) {
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const imported of outputs[chunk]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) todo.push(imported.path);
    }
  }
  return [...seen];
}

/** The loaded modules that import a module matching `imported` this way (an ES import, or a `require`). */
function importersOf(
  sources: string[],
  imported: RegExp,
  kind: "import-statement" | "require-call",
): string[] {
  return [...new Set(loadedBy(sources))].filter((input) =>
    metafile.inputs[input]?.imports.some((edge) => edge.kind === kind && imported.test(edge.path)),
  );
}

/** Every source file loaded once these modules' chunks are. */
function loadedBy(sources: string[]): string[] {
  return loadedChunks(sources).flatMap((chunk) => Object.keys(outputs[chunk]?.inputs ?? {}));
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
    // validate's declaration is in the program's chunk; what it runs (git included) loads when it runs.
    expect(inputs.filter((input) => input.startsWith("src/adapters/"))).toEqual([]);
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

  it("for sync: the engine and YAML (so the checks above can fail); the HTTP client and the validator when used", () => {
    const sync = [...CLI, "src/hosts/cli/sync.ts", "src/hosts/cli/sync-settings.ts"];
    const packages = packagesIn(loadedBy(sync));
    expect(packages).toEqual(expect.arrayContaining(["commander", "yaml", "js-yaml"]));
    // A check without a token calls nothing: the GitBook client (undici) loads with a token, the review
    // threads (their HTTP client) with a review.
    expect(packages).not.toContain("undici");
    expect(packagesIn(loadedBy([...sync, "src/hosts/cli/connection.ts"]))).toContain("undici");
    expect(packagesIn(loadedBy([...sync, "src/adapters/gitlab/notes.ts"]))).toContain("undici");
    for (const thread of [
      "src/adapters/github/pull-request-thread.ts",
      "src/adapters/azure-devops/threads.ts",
      "src/adapters/bitbucket/comments.ts",
    ]) {
      expect(packagesIn(loadedBy([...sync, thread]))).toContain("undici");
    }
    // The check against the official schemas is imported by loadStructuralCheck, after the first request.
    expect(packages).not.toContain("ajv");
  });

  it("for sync --mode check: no change review, shaping, pruning or previews; each loads where a run needs it", () => {
    const check = loadedBy([...CLI, "src/hosts/cli/sync.ts", "src/hosts/cli/sync-settings.ts"]);
    const reviewOrShaping =
      /src\/core\/(changes\/|change-review\/(change-review|change-places|review-verdict|compare-worker|base-document)\.ts|shaping\/(audiences|overlay|patterns|remove-internal)\.ts|prune\/|previews\/)/;
    expect(check.filter((input) => reviewOrShaping.test(input))).toEqual([]);
    expect(packagesIn(check)).not.toContain("json-p3");
    expect(packagesIn(check)).not.toContain("re2js");
    // The preparation's pool, imported by every run that checks or publishes a spec, brings no shaping.
    const pool = loadedBy([...CLI, "src/hosts/cli/sync.ts", "src/core/prepare/prepare-worker.ts"]);
    expect(pool.filter((input) => reviewOrShaping.test(input))).toEqual([]);
    expect(packagesIn(pool)).not.toContain("re2js");
    // What a preview's review, a shaped spec, pruning and cleanup import when they come to it (run.ts,
    // spec-work.ts, base-document.ts): each a chunk of its own, so that the lines above can fail.
    for (const [source, loads] of [
      ["src/core/change-review/change-review.ts", "src/core/changes/index.ts"],
      ["src/core/change-review/review-verdict.ts", "src/core/change-review/review-verdict.ts"],
      ["src/core/change-review/change-places.ts", "src/core/change-review/change-places.ts"],
      ["src/core/shaping/audiences.ts", "src/core/shaping/overlay.ts"],
      ["src/core/prune/prune.ts", "src/core/prune/prune.ts"],
      ["src/core/previews/cleanup.ts", "src/core/previews/cleanup.ts"],
    ] as const) {
      expect(loadedBy([source])).toContain(loads);
    }
    expect(packagesIn(loadedBy(["src/core/shaping/audiences.ts"]))).toEqual(
      expect.arrayContaining(["json-p3", "re2js"]),
    );
  });

  it("for validate and sync: YAML's positions reader loaded but not run until a finding is placed, no crypto", () => {
    const validate = [
      ...CLI,
      "src/hosts/cli/sync-settings.ts",
      "src/core/discovery/index.ts",
      "src/core/prepare/prepare.ts",
    ];
    const sync = [...CLI, "src/hosts/cli/sync.ts", "src/hosts/cli/sync-settings.ts"];
    for (const sources of [validate, sync]) {
      // Its code is in a loaded chunk (so the line below can fail), and only yaml-package.ts asks for it,
      // with a `require` that runs it on first use (src/core/documents/yaml-package.ts).
      expect(packagesIn(loadedBy(sources))).toContain("yaml");
      expect(importersOf(sources, /node_modules\/yaml\//, "import-statement")).toEqual([]);
      expect(importersOf(sources, /node_modules\/yaml\/dist\/index\.js$/, "require-call")).toEqual([
        "src/core/documents/yaml-package.ts",
      ]);
      // Nor node:crypto (3 ms): digests are for publish records (src/core/text/sha256.ts requires it).
      expect(importersOf(sources, /^node:crypto$/, "import-statement")).toEqual([]);
    }
  });

  it("for validation: the validator generated for the document's version, and no other nor ajv's compiler", () => {
    const structure = loadedBy(["src/core/validation/structure.ts"]);
    expect(structure).toContain("src/core/validation/structure.ts");
    // No version's code until a document of that version is validated, and no compiler at all.
    expect(structure.filter((input) => input.startsWith("openapi-validator:"))).toEqual([]);
    expect(packagesIn(structure)).not.toContain("ajv-draft-04");
    expect(structure.filter((input) => /node_modules\/ajv\/dist\/(compile|core|2020)/.test(input))).toEqual(
      [],
    );
    const versions = ["2.0", "3.0", "3.1", "3.2"];
    for (const version of versions) {
      const inputs = loadedBy(["src/core/validation/structure.ts", `openapi-validator:${version}`]);
      expect(inputs.filter((input) => input.startsWith("openapi-validator:"))).toEqual([
        `openapi-validator:${version}`,
      ]);
    }
    // Validating a 3.0 document does not load the 3.1 validator's chunk.
    const chunks30 = loadedChunks(["src/core/validation/structure.ts", "openapi-validator:3.0"]);
    expect(chunks30).toContain(chunkOf("openapi-validator:3.0"));
    expect(chunks30).not.toContain(chunkOf("openapi-validator:3.1"));
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
    // It reads the review's base version (base-document.ts, imported when a worker reads one: the pool's
    // thread never loads it), but never loads the comparison.
    expect(inputs).not.toContain("src/core/change-review/base-document.ts");
    expect(loadedBy(["src/core/change-review/base-document.ts"])).toContain("src/core/bundling/bundle.ts");
    expect(inputs.filter((input) => /src\/core\/(changes\/|review\/compare-worker)/.test(input))).toEqual([]);
  });
});
