/**
 * `npm run lint` keeps product code (src/) from importing the harness, imports pointing inwards, the
 * core free of processes, sockets and the environment, and each host out of the other: biome's
 * noRestrictedImports and noRestrictedGlobals, configured per folder in biome.json. Runs biome with that
 * configuration on probe files that break each rule.
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
  "src/core/run/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/adapters/github/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/settings/nested/probe.ts": ["core", "adapters", "settings", "hosts"],
  "src/hosts/cli/probe.ts": ["core", "adapters", "settings", "hosts"],
};

/** What the core may not reach for, one a line; each line is refused. */
const CORE_EDGE_LINES = [
  'import { spawn } from "node:child_process";',
  'import { execFile } from "child_process";',
  'import { request } from "undici";',
  'import type { Dispatcher } from "undici/types/dispatcher";',
  'import { env } from "node:process";',
  'const { exec } = await import("node:child_process");',
  "export const token = process.env.GITBOOK_TOKEN;",
];
/** What the core may use: its worker threads, files, and a global that is not the process. */
const CORE_ALLOWED_LINES = [
  'import { Worker } from "node:worker_threads";',
  'import { readFile } from "node:fs/promises";',
  "export const used = [spawn, execFile, request, env, exec, Worker, readFile, globalThis.setTimeout];",
  "export type Used = Dispatcher;",
];
const CORE_EDGE_PROBE = "src/core/change-review/edge-probe.ts";
/** The same file outside the core (an adapter): nothing in it is refused. */
const ADAPTER_EDGE_PROBE = "src/adapters/git/edge-probe.ts";

/** One host's file importing the other host, then a shared host module and the inner layers. */
const HOST_PROBES = {
  "src/hosts/action/host-probe.ts": [
    'import { runCli } from "../cli/program.ts";',
    'import type { SyncFlags } from "../../hosts/cli/sync-settings.ts";',
    'export { main } from "../cli/main.ts";',
    'import { processSignals } from "../process-signals.ts";',
    'import { runSync } from "../../core/run/run.ts";',
    'import { SETTINGS } from "../../settings/settings-table.ts";',
    "export const used = [runCli, processSignals, runSync, SETTINGS, {} as SyncFlags];",
  ],
  "src/hosts/cli/host-probe.ts": [
    'import { run } from "../action/main.ts";',
    'const loaded = await import("../../hosts/action/run.ts");',
    'import { runRepository } from "../repository.ts";',
    'import { GitBookClient } from "../../adapters/gitbook/index.ts";',
    "export const used = [run, loaded, runRepository, GitBookClient];",
  ],
} as const;
/** The transport importing the comment's domain (refused), then the core's service (allowed). */
const TRANSPORT_PROBE = "src/adapters/http/comment-probe.ts";
const TRANSPORT_LINES = [
  'import type { CommentStore } from "../../core/review-thread/thread.ts";',
  'import { restCommentStore } from "../review-host/rest-comment-store.ts";',
  'import { GitBookApiError } from "../../core/service/errors.ts";',
  "export const used = [restCommentStore, GitBookApiError, {} as CommentStore];",
];

/** How many of each host probe's first lines import the other host. */
const HOST_IMPORTS_OF_THE_OTHER = { "src/hosts/action/host-probe.ts": 3, "src/hosts/cli/host-probe.ts": 2 };

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
  const edgeProbe = `${[...CORE_EDGE_LINES, ...CORE_ALLOWED_LINES].join("\n")}\n`;
  const probes: Record<string, string> = { [CORE_EDGE_PROBE]: edgeProbe, [ADAPTER_EDGE_PROBE]: edgeProbe };
  for (const [file, lines] of Object.entries(HOST_PROBES)) probes[file] = `${lines.join("\n")}\n`;
  probes[TRANSPORT_PROBE] = `${TRANSPORT_LINES.join("\n")}\n`;
  for (const [file, text] of Object.entries(probes)) {
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await writeFile(path.join(folder, file), text);
  }
  const biome = path.join(repositoryRoot, "node_modules", ".bin", "biome");
  const { stdout } = await promisify(execFile)(
    biome,
    ["lint", "--reporter=json", "--max-diagnostics=500", "."],
    {
      cwd: folder,
    },
  ).catch((error: { stdout: string }) => error);
  diagnostics = JSON.parse(stdout).diagnostics;
});

afterAll(() => rm(folder, { recursive: true, force: true }));

const restricted = (file: string, rule = "noRestrictedImports") =>
  diagnostics
    .filter((d) => d.category === `lint/style/${rule}` && d.location.path === file)
    .map((d) => d.location.start.line);

/** Lines 1 to n. */
const firstLines = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

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
    expect(refusedLayers("src/core/run/probe.ts")).toEqual(["adapters", "settings", "hosts"]);
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

describe("the core starts no process, opens no socket and reads no environment", () => {
  /** The lines of the probe that biome refuses, by either rule. */
  const refused = (file: string) =>
    [...restricted(file), ...restricted(file, "noRestrictedGlobals")].sort((a, b) => a - b);

  it("refuses child_process, undici and node:process imports and the process global under src/core", () => {
    expect(restricted(CORE_EDGE_PROBE)).toEqual(firstLines(CORE_EDGE_LINES.length - 1));
    expect(restricted(CORE_EDGE_PROBE, "noRestrictedGlobals")).toEqual([CORE_EDGE_LINES.length]);
  });

  it("lets the core use its worker threads and files", () => {
    expect(refused(CORE_EDGE_PROBE)).toEqual(firstLines(CORE_EDGE_LINES.length));
  });

  it("lets an adapter run processes, open sockets and read the environment", () => {
    expect(refused(ADAPTER_EDGE_PROBE)).toEqual([]);
  });
});

describe("a host never imports the other host", () => {
  it.each(Object.entries(HOST_IMPORTS_OF_THE_OTHER))(
    "%s: only its imports of the other host are refused",
    (file, count) => {
      expect(restricted(file)).toEqual(firstLines(count));
    },
  );
});

describe("the transport knows nothing of the comment", () => {
  it("refuses src/adapters/http's imports of the review thread and the review hosts' client", () => {
    expect(restricted(TRANSPORT_PROBE)).toEqual([1, 2]);
  });
});
