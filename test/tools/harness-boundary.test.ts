/**
 * `npm run lint` keeps product code (src/) from importing the harness: biome's noRestrictedImports,
 * configured for src/** in biome.json. Runs biome with that configuration on probe files.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repositoryRoot } from "../../harness/runner/action-runner.ts";

const FORBIDDEN_IMPORTS = [
  'import { startEmulator } from "../../harness/emulator/index.ts";',
  'import type { RunnerResult } from "../harness/runner/action-runner.ts";',
  'export { startServer } from "../../harness/loopback/loopback.ts";',
  'const fake = await import("../../harness/fakes/fake-github.ts");',
  'import { specFixture } from "../../test/support/spec-fixture.ts";',
];

/** One import of each layer, as a file two folders below src/ writes it. */
const LAYER_IMPORTS = {
  core: 'import { compareApis } from "../../core/changes/index.ts";',
  adapters: 'import { GitBookClient } from "../../adapters/gitbook/index.ts";',
  settings: 'import { SETTINGS } from "../../settings/settings-table.ts";',
  hosts: 'import { runCli } from "../../hosts/cli/program.ts";',
} as const;
type Layer = keyof typeof LAYER_IMPORTS;
const LAYER_PROBES: Record<string, readonly Layer[]> = {
  "src/core/sync/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/adapters/github/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/settings/nested/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/hosts/cli/probe.ts": ["core", "adapters", "settings", "hosts"],
};

interface Diagnostic {
  category: string;
  location: { path: string; start: { line: number } };
}

let folder: string;
let diagnostics: Diagnostic[];

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "harness-boundary-"));
  // The project's configuration without `vcs`, which wants a git work tree.
  const {
    vcs: _vcs,
    $schema: _schema,
    ...config
  } = JSON.parse(await readFile(path.join(repositoryRoot, "biome.json"), "utf8"));
  await writeFile(path.join(folder, "biome.json"), JSON.stringify(config));
  const probe = `${FORBIDDEN_IMPORTS.join("\n")}\n\nexport const used = [startEmulator, specFixture, fake];\n`;
  for (const file of ["src/hosts/action/probe.ts", "test/action/probe.ts", "harness/probe.ts"]) {
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await writeFile(path.join(folder, file), probe);
  }
  for (const [file, layers] of Object.entries(LAYER_PROBES)) {
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    const lines = layers.map((layer) => LAYER_IMPORTS[layer]);
    const names = ["compareApis", "GitBookClient", "SETTINGS", "runCli"];
    await writeFile(
      path.join(folder, file),
      `${lines.join("\n")}\n\nexport const used = [${names.join(", ")}];\n`,
    );
  }
  const biome = path.join(repositoryRoot, "node_modules", ".bin", "biome");
  const { stdout } = await promisify(execFile)(
    biome,
    ["lint", "--reporter=json", "--max-diagnostics=100", "."],
    {
      cwd: folder,
    },
  ).catch((error: { stdout: string }) => error);
  diagnostics = JSON.parse(stdout).diagnostics;
});

afterAll(() => rm(folder, { recursive: true, force: true }));

const restricted = (file: string) =>
  diagnostics
    .filter((d) => d.category === "lint/style/noRestrictedImports" && d.location.path === file)
    .map((d) => d.location.start.line);

describe("product code cannot import the harness", () => {
  it("reports every import of the harness or the tests from src/", () => {
    expect(restricted("src/hosts/action/probe.ts")).toEqual(FORBIDDEN_IMPORTS.map((_, index) => index + 1));
  });

  it("lets tests and the harness itself import it", () => {
    expect(restricted("test/action/probe.ts")).toEqual([]);
    expect(restricted("harness/probe.ts")).toEqual([]);
  });
});

describe("imports point inwards: hosts → settings → core ← adapters", () => {
  /** The layers whose import a probe in `file` gets refused for, from the lines biome reports. */
  const refusedLayers = (file: string) => restricted(file).map((line) => LAYER_PROBES[file]?.[line - 1]);

  it("the core imports nothing outside it", () => {
    expect(refusedLayers("src/core/sync/probe.ts")).toEqual(["adapters", "settings", "hosts"]);
  });

  it("adapters import the core and each other, never a host or the settings", () => {
    expect(refusedLayers("src/adapters/github/probe.ts")).toEqual(["settings", "hosts"]);
  });

  it("the settings import the core, never an adapter or a host", () => {
    expect(refusedLayers("src/settings/nested/probe.ts")).toEqual(["adapters", "hosts"]);
  });

  it("hosts import every layer", () => {
    expect(refusedLayers("src/hosts/cli/probe.ts")).toEqual([]);
  });
});
