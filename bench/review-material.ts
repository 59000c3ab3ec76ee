/**
 * Real material for the API change review: pairs of real releases of public API descriptions (a base
 * commit and a later commit of the same file), written into a cache folder (never committed) for
 * `bench/review.ts` and `scripts/review-cases.ts`. Split specs are bundled first with the project's own
 * bundler (`bundleSpec`, as the review does at a base commit), from a `git archive` of their folder.
 *
 * Where the specs come from: bare clones of the public repositories, one folder per repository named
 * `<owner>+<name>/repo` under the mirrors folder (default `/work/.mirror`; e.g. `git clone --mirror
 * https://github.com/stripe/openapi /work/.mirror/stripe+openapi/repo`). A repository that is missing
 * is skipped with a message. GitHub's REST description is over 4 MiB a file and its repository
 * (github/rest-api-description) over 500 MB, so it comes from the npm package that republishes it,
 * `@octokit/openapi` (`npm pack`, cached under the cache folder), each version a release.
 *
 * Licences of the material (read, never redistributed: the cache stays in the temporary folder):
 * - stripe/openapi: MIT (Stripe, Inc.)
 * - github/rest-api-description: MIT (GitHub), through npm `@octokit/openapi`: MIT (Octokit contributors)
 * - twilio/twilio-oai: MIT (Twilio, Inc.)
 * - digitalocean/openapi: Apache-2.0
 * - kubernetes-client/python: Apache-2.0 (the Kubernetes API description)
 * - argoproj/argo-workflows: Apache-2.0
 * - moby/moby: Apache-2.0 (the Docker Engine API description)
 * - openai/openai-openapi: MIT (OpenAI)
 * - lichess-org/api: AGPL-3.0-or-later (the Lichess API reference)
 *
 * Run with `npx node bench/review-material.ts [--mirrors <folder>] [--cache <folder>] [--force]
 * [pair id…]`; it prints the manifest as a Markdown table. Other files import `gatherMaterial` and
 * `readManifest`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSpec } from "../src/core/bundling/index.ts";
import { npmPackageFiles } from "./npm-package.ts";

export const DEFAULT_MIRRORS = "/work/.mirror";
export const DEFAULT_CACHE = path.join(tmpdir(), "gitbook-openapi-review-material-v1");

/** One pair: a file at a base and at a head, and how to get each side. */
export interface PairSource {
  /** Short name, also the pair's folder in the cache. */
  id: string;
  /** `owner/name` on GitHub, where the description lives. */
  repo: string;
  /** The spec's file in the repository (a split spec: its root). */
  path: string;
  /** Commits (git) or package versions (npm). */
  base: string;
  head: string;
  /** What kind of spec this is, for the tables. */
  style: string;
  licence: string;
  /** A split spec: the folder to `git archive` and bundle from. */
  bundleFolder?: string;
  /** Read from an npm package instead of the repository: its name and the file inside it. */
  npm?: { name: string; file: string };
}

export const PAIRS: PairSource[] = [
  {
    id: "stripe-4mb",
    repo: "stripe/openapi",
    path: "openapi/spec3.yaml",
    base: "3df0d27ebd1ecbfa7bf4d4b97daa6db31e1a9e6c",
    head: "63a674638635c68de26b9f3add13e58198f4df44",
    style: "OpenAPI 3.0, single-file YAML, 4 MB (3½ months apart: the pair of issue 17)",
    licence: "MIT",
  },
  {
    id: "stripe-near",
    repo: "stripe/openapi",
    path: "openapi/spec3.yaml",
    base: "3cd3f47fbe6cfa5692d82cfe44647689a7e26aef",
    head: "d351db8cf13c17524059fc8961c94b9a2132115f",
    style: "OpenAPI 3.0, single-file YAML, 4 MB (3 releases apart)",
    licence: "MIT",
  },
  {
    id: "github-api",
    repo: "github/rest-api-description",
    path: "descriptions/api.github.com/api.github.com.json",
    base: "23.0.0",
    head: "23.0.1",
    style: "OpenAPI 3.0, JSON, 13 MB (npm @octokit/openapi releases)",
    licence: "MIT",
    npm: { name: "@octokit/openapi", file: "generated/api.github.com.json" },
  },
  {
    id: "github-ghes",
    repo: "github/rest-api-description",
    path: "descriptions/ghes-3.19/ghes-3.19.json",
    base: "22.0.0",
    head: "23.0.0",
    style: "OpenAPI 3.0, JSON, 11 MB (npm @octokit/openapi releases, GHES 3.19)",
    licence: "MIT",
    npm: { name: "@octokit/openapi", file: "generated/ghes-3.19.json" },
  },
  {
    id: "twilio-api",
    repo: "twilio/twilio-oai",
    path: "spec/json/twilio_api_v2010.json",
    base: "2c1b9c8fda4411c3e961688abfecac8927952725",
    head: "55a17be6f0f130e5d529f92c0bf774254bb0f1d1",
    style: "OpenAPI 3.0, JSON, 1.9 MB, messaging and voice (2 releases apart)",
    licence: "MIT",
  },
  {
    id: "twilio-messaging",
    repo: "twilio/twilio-oai",
    path: "spec/json/twilio_messaging_v1.json",
    base: "733ecb2a635927ba0856f4e8054c775847b0c1b9",
    head: "55a17be6f0f130e5d529f92c0bf774254bb0f1d1",
    style: "OpenAPI 3.0, JSON, 0.5 MB, messaging (2 releases apart)",
    licence: "MIT",
  },
  {
    id: "digitalocean",
    repo: "digitalocean/openapi",
    path: "specification/DigitalOcean-public.v2.yaml",
    base: "7667351a0c8a1a526343160e1778cb5e97b2c9da",
    head: "87e82da6548bb4df718745c241b66061185e2d0c",
    style: "OpenAPI 3.0, split YAML (2,900 files), bundled (4 commits apart)",
    licence: "Apache-2.0",
    bundleFolder: "specification",
  },
  {
    id: "kubernetes",
    repo: "kubernetes-client/python",
    path: "kubernetes/swagger.json.unprocessed",
    base: "4f585b3b8eb46c8afada5fa74200d9c859e2e92e",
    head: "82420b325c06006b14557fd28a2ed8ab906a6e95",
    style: "Swagger 2.0, JSON, 3.8 MB (one Kubernetes minor release)",
    licence: "Apache-2.0",
  },
  {
    id: "argo-small",
    repo: "argoproj/argo-workflows",
    path: "api/openapi-spec/swagger.json",
    base: "1c25b3c1c53ccb12e34c483a19600a2dbbec355e",
    head: "a99e2f4cf70935b98dd5c81a77c16c64252bbad1",
    style: "Swagger 2.0, JSON, 0.8 MB (4 commits apart)",
    licence: "Apache-2.0",
  },
  {
    id: "argo-k8s",
    repo: "argoproj/argo-workflows",
    path: "api/openapi-spec/swagger.json",
    base: "6a0aed9f5323de25ad39eb7949300d8c2fbbf0af",
    head: "7fe62c8302e42fd69f54bdfee81a93607d7252b0",
    style: "Swagger 2.0, JSON, 0.8 MB (Kubernetes libraries updated to v0.35.1)",
    licence: "Apache-2.0",
  },
  {
    id: "moby",
    repo: "moby/moby",
    path: "api/swagger.yaml",
    base: "8368bcd28fbf743b22498fe5bdd6fe490a42e7f2",
    head: "4f84bcb9674a2ea88f25387aa841041379b9bf76",
    style: "Swagger 2.0, YAML, 0.5 MB (Engine API 1.54 → 1.55)",
    licence: "Apache-2.0",
  },
  {
    id: "openai",
    repo: "openai/openai-openapi",
    path: "openapi.yaml",
    base: "b8d775d82e8c0e8543b091cb10927fffdd0dc55b",
    head: "f85dbe223d40e1a31cba812ab2d755c7e98a92a3",
    style: "OpenAPI 3.1, single-file YAML, 3 MB (5 commits apart)",
    licence: "MIT",
  },
  {
    id: "lichess",
    repo: "lichess-org/api",
    path: "doc/specs/lichess-api.yaml",
    base: "98ac548f10ee9f9e73d293d25e89385fb0afec34",
    head: "6fea80a88c59ab559dd32b9c151d89d88329ca8b",
    style: "OpenAPI 3.1, split YAML (580 files), bundled (6 commits apart)",
    licence: "AGPL-3.0-or-later",
    bundleFolder: "doc/specs",
  },
];

/** A pair as written in the cache. */
export interface MaterialPair extends Omit<PairSource, "bundleFolder" | "npm"> {
  /** `git` (the repository's mirror) or `npm <name>` (the versions are the package's). */
  source: string;
  bundled: boolean;
  format: "json" | "yaml";
  /** Absolute paths of the two sides in the cache. */
  baseFile: string;
  headFile: string;
  baseBytes: number;
  headBytes: number;
}

export interface Manifest {
  cache: string;
  pairs: MaterialPair[];
  /** Pairs left out, with why (a missing mirror, a failed bundle). */
  skipped: { id: string; reason: string }[];
}

const formatOf = (file: string): "json" | "yaml" => (/\.json(\.unprocessed)?$/.test(file) ? "json" : "yaml");

function git(repoDir: string, args: string[]): Buffer {
  return execFileSync("git", ["-C", repoDir, ...args], {
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The bundled text of a split spec at one commit: its folder archived, then `bundleSpec`. */
async function bundledAt(repoDir: string, pair: PairSource, commit: string): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), "review-material-"));
  try {
    const archive = git(repoDir, ["archive", "--format=tar", commit, pair.bundleFolder as string]);
    execFileSync("tar", ["xf", "-", "-C", folder], { input: archive, maxBuffer: 1 << 30 });
    const bundled = await bundleSpec(path.join(folder, pair.path), { workspace: folder });
    return bundled.text;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** One file of an npm package's version, packed once into the cache. */
function npmFile(cache: string, name: string, version: string, file: string): Buffer {
  const folder = npmPackageFiles(path.join(cache, "npm"), name, version, [`package/${file}`]);
  return readFileSync(path.join(folder, "package", file));
}

/**
 * Writes every pair (or those named in `only`) into `cache/<id>/base.<ext>` and `head.<ext>` unless
 * already there (`force` writes again), and `cache/manifest.json`. Missing mirrors are skipped.
 */
export async function gatherMaterial(
  options: {
    mirrors?: string;
    cache?: string;
    only?: readonly string[];
    force?: boolean;
    log?: (line: string) => void;
  } = {},
): Promise<Manifest> {
  const mirrors = options.mirrors ?? DEFAULT_MIRRORS;
  const cache = options.cache ?? DEFAULT_CACHE;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(cache, { recursive: true });
  const pairs: MaterialPair[] = [];
  const skipped: Manifest["skipped"] = [];
  for (const pair of PAIRS) {
    if (options.only && options.only.length > 0 && !options.only.includes(pair.id)) continue;
    const format = formatOf(pair.path);
    const folder = path.join(cache, pair.id);
    const baseFile = path.join(folder, `base.${format}`);
    const headFile = path.join(folder, `head.${format}`);
    const repoDir = path.join(mirrors, pair.repo.replace("/", "+"), "repo");
    // What the two files were written from: another base, head or file in PAIRS writes them again.
    const sourceFile = path.join(folder, "source.json");
    const source = JSON.stringify(pair);
    const current =
      existsSync(baseFile) &&
      existsSync(headFile) &&
      existsSync(sourceFile) &&
      readFileSync(sourceFile, "utf8") === source;
    try {
      if (options.force || !current) {
        let sides: [Buffer | string, Buffer | string];
        if (pair.npm) {
          const npm = pair.npm;
          sides = [
            npmFile(cache, npm.name, pair.base, npm.file),
            npmFile(cache, npm.name, pair.head, npm.file),
          ];
        } else if (!existsSync(repoDir)) {
          const reason = `no mirror of ${pair.repo} at ${repoDir}`;
          log(`${pair.id}: skipped, ${reason}`);
          skipped.push({ id: pair.id, reason });
          continue;
        } else if (pair.bundleFolder) {
          sides = [await bundledAt(repoDir, pair, pair.base), await bundledAt(repoDir, pair, pair.head)];
        } else {
          sides = [
            git(repoDir, ["show", `${pair.base}:${pair.path}`]),
            git(repoDir, ["show", `${pair.head}:${pair.path}`]),
          ];
        }
        mkdirSync(folder, { recursive: true });
        writeFileSync(baseFile, sides[0]);
        writeFileSync(headFile, sides[1]);
        writeFileSync(sourceFile, source);
        log(`${pair.id}: written`);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      log(`${pair.id}: skipped, ${reason}`);
      skipped.push({ id: pair.id, reason: reason ?? "unknown" });
      continue;
    }
    const { bundleFolder, npm, ...described } = pair;
    pairs.push({
      ...described,
      source: npm ? `npm ${npm.name} ${npm.file}` : "git",
      bundled: bundleFolder !== undefined,
      format,
      baseFile,
      headFile,
      baseBytes: statSync(baseFile).size,
      headBytes: statSync(headFile).size,
    });
  }
  const manifest: Manifest = { cache, pairs, skipped };
  // The file keeps every pair gathered so far: a run on a few pairs replaces only theirs.
  const kept =
    readManifest(cache)?.pairs.filter(
      (p) => PAIRS.some((q) => q.id === p.id) && !pairs.some((q) => q.id === p.id),
    ) ?? [];
  const order = (p: MaterialPair) => PAIRS.findIndex((q) => q.id === p.id);
  const written: Manifest = {
    cache,
    pairs: [...kept, ...pairs].sort((x, y) => order(x) - order(y)),
    skipped,
  };
  writeFileSync(path.join(cache, "manifest.json"), `${JSON.stringify(written, null, 2)}\n`);
  return manifest;
}

/** The manifest written by {@link gatherMaterial}, or undefined when there is none. */
export function readManifest(cache = DEFAULT_CACHE): Manifest | undefined {
  const file = path.join(cache, "manifest.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Manifest) : undefined;
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const short = (ref: string) => (/^[0-9a-f]{40}$/.test(ref) ? ref.slice(0, 10) : ref);

/** The pairs as a Markdown table. */
export function manifestTable(manifest: Manifest): string {
  const lines = [
    "| Pair | Repository | File | Base → head | Style | Base | Head | Licence |",
    "| --- | --- | --- | --- | --- | ---: | ---: | --- |",
    ...manifest.pairs.map(
      (p) =>
        `| ${p.id} | ${p.repo}${p.source === "git" ? "" : ` (${p.source})`} | \`${p.path}\`${p.bundled ? " (bundled)" : ""} | ${short(p.base)} → ${short(p.head)} | ${p.style} | ${megabytes(p.baseBytes)} | ${megabytes(p.headBytes)} | ${p.licence} |`,
    ),
  ];
  for (const skip of manifest.skipped) lines.push(`\nSkipped ${skip.id}: ${skip.reason}`);
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (name: string) => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []))[0];
  const mirrors = value("--mirrors");
  const cache = value("--cache");
  const only = args.filter(
    (arg, i) => !arg.startsWith("--") && !["--mirrors", "--cache"].includes(args[i - 1] ?? ""),
  );
  const manifest = await gatherMaterial({
    ...(mirrors ? { mirrors } : {}),
    ...(cache ? { cache } : {}),
    only,
    force: args.includes("--force"),
  });
  console.log(`Material in ${manifest.cache}\n`);
  console.log(manifestTable(manifest));
}
