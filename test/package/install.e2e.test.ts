/**
 * The npm package as a user gets it: `npm pack` of the repository, `npm install <tarball>` into an empty
 * folder (offline: the package has no dependencies to fetch), then the installed `gitbook-openapi`
 * command run by its `#!` line with Node.js 24 (this process's) and Node.js 22 first on PATH:
 * `--version`, and a `sync` against the emulator.
 *
 * Node.js 22 is the `node22` devDependency (`npm:node@22.19.0`, the floor of `engines.node`), which
 * `npm ci` installs: this file needs nothing from the network. Every npm it starts runs offline, behind an
 * unreachable proxy and with an empty cache of its own (a warm ~/.npm would hide a fetch), and the
 * installed command runs behind the same proxy (the emulator is on loopback, in NO_PROXY): a step that
 * would reach out fails here rather than quietly depending on the network. Both the `node` and the
 * `node22` packages declare a `node` bin; npm links bins in the order of their paths, so
 * node_modules/.bin/node stays Node.js 24 (`node` sorts before `node22`).
 */
import { type ExecFileOptions, execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  files: string[];
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const NODE22 = path.join(ROOT, "node_modules", "node22", "bin", "node");
/**
 * Nothing this file starts may reach the network: a proxy nobody listens on (port 9, discard), and npm
 * told to answer from its cache only (an empty one: see npm()). Loopback (the emulator) is exempt.
 */
const UNREACHABLE_NETWORK = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost,::1",
  npm_config_proxy: "http://127.0.0.1:9",
  npm_config_https_proxy: "http://127.0.0.1:9",
  npm_config_offline: "true",
} as const;
const TOKEN = "package-install-token-5b1e9c";
const ORG = "demo-org";
/** npm's own work (pack, install) may take a while on a 2-core CI. */
const NPM_TIMEOUT = 180_000;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let scratch: string;
let installed: string;
let packed: PackResult;
let emulator: RunningEmulator;

/**
 * npm with this process's environment minus the `npm_*` variables an npm script running us may set, and
 * with the network out of reach: offline, behind the unreachable proxy, with an empty cache in `scratch`.
 */
function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    ...UNREACHABLE_NETWORK,
    npm_config_cache: path.join(scratch, "npm-cache"),
  };
  const options: ExecFileOptions = { cwd, env, timeout: NPM_TIMEOUT, maxBuffer: 64 * 1024 * 1024 };
  return run("npm", args, { ...options, encoding: "utf8" });
}

/** The `node22` devDependency's binary; `npm ci` installs it. */
async function node22(): Promise<string> {
  const version = await run(NODE22, ["--version"]).then(
    ({ stdout }) => stdout.trim(),
    (error: Error) => error.message,
  );
  if (!existsSync(NODE22) || !version.startsWith("v22."))
    throw new Error(
      `No Node.js 22 at ${NODE22} (${version}): the node22 devDependency is missing; run npm ci.`,
    );
  return NODE22;
}

/** The installed command, started by its `#!/usr/bin/env node` line with `nodeBinary` first on PATH. */
function gitbookOpenapi(nodeBinary: string, args: string[], env: Record<string, string> = {}) {
  const PATH = `${path.dirname(nodeBinary)}${path.delimiter}${process.env.PATH ?? ""}`;
  const bin = path.join(installed, "node_modules", ".bin", "gitbook-openapi");
  return run(bin, args, {
    env: { PATH, NO_COLOR: "1", ...UNREACHABLE_NETWORK, ...env },
    encoding: "utf8",
    timeout: 60_000,
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code?: unknown; stdout?: string; stderr?: string }) => ({
      code: error.code,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? String(error),
    }),
  );
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "gitbook-openapi-package-"));
  const started = Date.now();
  const { stdout } = await npm(
    ["pack", "--pack-destination", scratch, "--json", "--ignore-scripts", "--silent"],
    ROOT,
  );
  const [result] = JSON.parse(stdout) as PackResult[];
  if (result === undefined) throw new Error(`npm pack --json printed no package: ${stdout}`);
  packed = result;
  installed = path.join(scratch, "user");
  await mkdir(installed);
  await writeFile(path.join(installed, "package.json"), '{ "private": true }\n');
  await npm(
    [
      "install",
      path.join(scratch, packed.filename),
      "--offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
    ],
    installed,
  );
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  console.log(
    `${packed.filename}: ${mib(packed.size)} packed, ${mib(packed.unpackedSize)} installed, ` +
      `${packed.files.length} files; packed and installed in ${Date.now() - started} ms`,
  );
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
}, 2 * NPM_TIMEOUT);

afterAll(async () => {
  await emulator?.close();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe("the npm package", () => {
  it("ships only what runs: dist/, schema/, README.md, LICENSE, CHANGELOG.md and package.json", () => {
    const files = packed.files.map((file) => file.path).sort();
    const shipped = (file: string) =>
      ["dist/", "schema/"].some((folder) => file.startsWith(folder)) ||
      ["README.md", "LICENSE", "CHANGELOG.md", "package.json"].includes(file);
    expect(files.filter((file) => !shipped(file))).toEqual([]);
    expect(
      files.filter((file) => /^(test|harness|src|bench|scripts|examples|docs|node_modules)\//.test(file)),
    ).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        "CHANGELOG.md",
        "LICENSE",
        "README.md",
        "dist/cli.js",
        "dist/index.js",
        "dist/package.json",
        "package.json",
        "schema/config.schema.json",
        "schema/results.schema.json",
      ]),
    );
  });

  it("installs offline with nothing beside itself: no runtime dependency to fetch", () => {
    const modules = readdirSync(path.join(installed, "node_modules")).filter((name) => !name.startsWith("."));
    expect(modules).toEqual([PACKAGE.name]);
    const manifest = JSON.parse(
      readFileSync(path.join(installed, "node_modules", PACKAGE.name, "package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ "gitbook-openapi": "dist/cli.js" });
  });

  it("is tried on the Node.js that engines.node names as the floor, a devDependency npm ci installs", async () => {
    const floor = /^>=(\d+\.\d+\.\d+)$/.exec(PACKAGE.engines.node)?.[1];
    expect(PACKAGE.devDependencies.node22).toBe(`npm:node@${floor}`);
    const { stdout } = await run(await node22(), ["--version"], { encoding: "utf8" });
    expect(stdout.trim()).toBe(`v${floor}`);
  });

  it("leaves node_modules/.bin/node, which every npm script runs on, to the project's Node.js 24", async () => {
    const major = /\^(\d+)\./.exec(PACKAGE.devDependencies.node ?? "")?.[1];
    const { stdout } = await run(path.join(ROOT, "node_modules", ".bin", "node"), ["--version"], {
      encoding: "utf8",
    });
    expect(major).toBe("24");
    expect(stdout.trim().split(".")[0]).toBe(`v${major}`);
  });

  describe.each([
    ["24", async () => process.execPath],
    ["22", node22],
  ])("run by Node.js %s", (major, nodeBinary) => {
    let binary: string;
    beforeAll(async () => {
      binary = await nodeBinary();
    }, NPM_TIMEOUT);

    it("is the Node.js the command's #! line finds", async () => {
      const PATH = `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ""}`;
      const { stdout } = await run("node", ["-p", "process.versions.node"], {
        env: { PATH },
        encoding: "utf8",
      });
      expect(stdout.trim().split(".")[0]).toBe(major);
    });

    it("gitbook-openapi --version prints the package's version", async () => {
      const result = await gitbookOpenapi(binary, ["--version"]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout.trim()).toBe(PACKAGE.version);
    });

    it("gitbook-openapi sync publishes a spec to the emulator", async () => {
      const workspace = path.join(scratch, `workspace-node${major}`);
      await mkdir(workspace, { recursive: true });
      await writeFile(
        path.join(workspace, "pets.yaml"),
        "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n",
      );
      const slug = `node${major}-pets`;
      const result = await gitbookOpenapi(
        binary,
        ["sync", "--workspace", workspace, "--slug-prefix", `node${major}`, "--json"],
        {
          GITBOOK_TOKEN: TOKEN,
          GITBOOK_API_URL: emulator.baseUrl,
          GITBOOK_ORGANIZATION: ORG,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject([{ file: "pets.yaml", slug, status: "published" }]);
      expect(emulator.listSpecs(ORG).map((spec) => spec.slug)).toContain(slug);
      expect(result.stderr).not.toContain(TOKEN);
    });

    it("gitbook-openapi diff reviews two files in its worker and exits 1 on a breaking change", async () => {
      const folder = path.join(scratch, `diff-node${major}`);
      await mkdir(folder, { recursive: true });
      const spec = (paths: string) =>
        `openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths:${paths}\n`;
      await writeFile(
        path.join(folder, "base.yaml"),
        spec("\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok"),
      );
      await writeFile(path.join(folder, "head.yaml"), spec(" {}"));
      const result = await gitbookOpenapi(binary, [
        "diff",
        path.join(folder, "base.yaml"),
        path.join(folder, "head.yaml"),
        "--json",
        "--fail-on-breaking",
      ]);
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({
        breaking: [
          {
            kind: "path-removed",
            operation: "/pets",
            message: "path removed",
            pointer: "#/paths/~1pets",
            // The removed path: its parent in the head, its own line in the base.
            file: path.join(folder, "head.yaml"),
            line: 5,
            baseFile: path.join(folder, "base.yaml"),
            baseLine: 6,
          },
        ],
        other: [],
      });
    });
  });
});
